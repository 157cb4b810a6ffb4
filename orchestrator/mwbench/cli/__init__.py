"""The `mwbench` command: one module per verb, listed in workflow order."""

import sys

import click

from . import (
    clean,
    compare,
    env,
    estimate,
    export,
    interop,
    list,
    plan,
    report,
    run,
    saturate,
    testhosts,
)

EXIT_USAGE = 2


class _Verbs(click.Group):
    """click's group, but every error is one line, `mwbench VERB: what is wrong`, with
    exit status 2 for a usage error (click prints the usage and a hint around it)."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            status = super().main(*args, **kwargs)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "mwbench"
            click.echo(f"{where}: {error.format_message()} (see `{where} --help`)", err=True)
            sys.exit(EXIT_USAGE)
        except click.ClickException as error:
            click.echo(f"mwbench: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except click.Abort:
            sys.exit(130)
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.ClickException as error:
            if isinstance(error, click.UsageError):
                raise
            click.echo(f"mwbench {ctx.invoked_subcommand}: {error.format_message()}", err=True)
            sys.exit(error.exit_code)


@click.group(cls=_Verbs, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mwbench")
def main() -> None:
    """Open, repeatable benchmarks of middleware.

    \b
    Typical session:
      mwbench env                      # what this machine is
      mwbench list                     # which drivers and suites are available
      mwbench plan suites/quick.yaml   # what a run would do: launches, time, precision
      mwbench run suites/quick.yaml    # measure; results go to results/mwbench.db
      mwbench saturate SPEC --experiment NAME --bound-us 200 --percentile 90
                                       # the highest open-loop rate under a p90 bound
      mwbench report -o report.html    # figures, disclosure and baseline ratios
      mwbench compare 1 2              # is run 2 slower than run 1? exits 1 if so
      mwbench estimate --payload-bytes 4096 --servants 100 --threads 4
                                       # combined-factor estimate from a run's sweeps
      mwbench export --format csv      # every cell of the latest run
      mwbench interop                  # every ORB's client against every ORB's server
      mwbench clean                    # stop and remove what a killed run left
      mwbench testhosts 3 -- mwbench run suites/hosts.yaml
                                       # the same, across 3 hosts over SSH (test hosts)
    """


for verb in (env.command, list.command, plan.command, run.command, saturate.command,
             interop.command, report.command, compare.command, estimate.command, export.command,
             clean.command, testhosts.command):
    main.add_command(verb)
