"""`mwbench run SPEC`: run every cell of a spec and store the results."""

import sys
from pathlib import Path

import click

from .. import paths
from ..matrix import MatrixError
from ..runner import run_suite
from ..spec import SpecError
from ..summary import print_summary
from .console import make_console

EXIT_FAILED_CELLS = 1
EXIT_BAD_SPEC = 2
EXIT_INTERRUPTED = 130


@click.command("run")
@click.argument("spec", type=click.Path(path_type=Path))
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help="SQLite database to add the run to (default results/mwbench.db).")
def command(spec: Path, db: Path | None) -> None:
    """Run the experiments of SPEC (a YAML file) and store every cell.

    Exits 0 when every cell succeeded, 1 when a cell failed (the others still
    ran and are stored), 2 for an invalid spec (nothing runs), 130 on Ctrl-C
    (finished cells are kept).

    \b
    Examples:
      mwbench run suites/quick.yaml
      mwbench run my-spec.yaml --db results/laptop.db
    """
    console = make_console()
    try:
        outcome = run_suite(spec, db or paths.default_db(), console)
    except (SpecError, MatrixError) as error:
        where = f"{spec}: " if isinstance(error, MatrixError) else ""
        click.echo(f"mwbench run: {where}{error}", err=True)
        sys.exit(EXIT_BAD_SPEC)
    print_summary(console, outcome.records, outcome.matrix)
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/]: {len(outcome.records)} finished cells of run "
                      f"{outcome.run_id} are stored")
        sys.exit(EXIT_INTERRUPTED)
    if outcome.failed:
        console.print(f"[red]{outcome.failed} of {len(outcome.records)} cells failed[/] "
                      f"(run {outcome.run_id})")
        sys.exit(EXIT_FAILED_CELLS)
    console.print(f"run {outcome.run_id}: all {len(outcome.records)} cells ok")
