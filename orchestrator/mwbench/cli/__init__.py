"""The `mwbench` command: one module per verb, listed in workflow order."""

import click

from . import env, export, list, report, run


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
      mwbench export --format csv      # every cell of the latest run
    """


for verb in (env.command, list.command, run.command, report.command, export.command):
    main.add_command(verb)
