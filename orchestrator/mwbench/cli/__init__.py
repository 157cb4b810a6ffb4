"""The `mwbench` command: one module per verb, listed in workflow order."""

import click

from . import compare, env, estimate, export, list, report, run


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mwbench")
def main() -> None:
    """Open, repeatable benchmarks of middleware.

    \b
    Typical session:
      mwbench env                      # what this machine is
      mwbench list                     # which drivers and suites are available
      mwbench run suites/quick.yaml    # measure; results go to results/mwbench.db
      mwbench report -o report.html    # figures, disclosure and baseline ratios
      mwbench compare 1 2              # is run 2 slower than run 1? exits 1 if so
      mwbench estimate --payload-bytes 4096 --servants 100 --threads 4
                                       # combined-factor estimate from a run's sweeps
      mwbench export --format csv      # every cell of the latest run
    """


for verb in (env.command, list.command, run.command, report.command, compare.command,
             estimate.command, export.command):
    main.add_command(verb)
