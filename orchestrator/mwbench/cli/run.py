"""`mwbench run SPEC`: run every cell of a spec and store the results."""

import sys
from pathlib import Path

import click

from .. import paths
from ..hosts.inventory import InventoryError
from ..interruption import Interrupted, stop_on_signals
from ..leftovers import LeftoverError
from ..matrix import MatrixError
from ..runner import run_suite
from ..spec import SpecError
from ..store import StoreError
from ..summary import print_summary
from .console import make_console
from .options import db_option

EXIT_FAILED_CELLS = 1
EXIT_BAD_INPUT = 2


@click.command("run")
@click.argument("spec", type=click.Path(path_type=Path))
@db_option("SQLite database to add the run to (default results/mwbench.db).")
@click.option("--inventory", type=click.Path(path_type=Path), default=None,
              envvar="MWBENCH_INVENTORY", show_envvar=True,
              help="Host inventory (YAML) naming the hosts of the factor `hosts`; "
                   "overrides the spec's `inventory:`.")
def command(spec: Path, db: Path | None, inventory: Path | None) -> None:
    """Run the experiments of SPEC (a YAML file) and store every cell.

    Exits 0 when every cell succeeded, 1 when a cell failed (the others still
    ran and are stored), 2 for an invalid spec or database (nothing runs), and
    128 + the signal's number when Ctrl-C (130), SIGTERM (143) or SIGHUP (129)
    stopped it: the current cell's processes are stopped, finished cells are
    kept, and the run is stored as `interrupted`.

    Before the first cell, whatever a run killed outright left behind (its
    processes, scratch directories, daemon files) is removed; `mwbench clean`
    does that alone.

    \b
    Examples:
      mwbench run suites/quick.yaml
      mwbench run my-spec.yaml --db results/laptop.db
      mwbench run suites/hosts.yaml --inventory lab.yaml
    """
    console = make_console()
    with stop_on_signals():
        try:
            outcome = run_suite(spec, db or paths.default_db(), console, inventory)
        except (SpecError, InventoryError, MatrixError, StoreError, LeftoverError) as error:
            where = f"{spec}: " if isinstance(error, MatrixError) else ""
            click.echo(f"mwbench run: {where}{error}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except Interrupted as interrupted:  # before the run began: nothing was stored
            click.echo(f"mwbench run: stopped by {interrupted} before any cell ran", err=True)
            sys.exit(interrupted.exit_status)
    print_summary(console, outcome.records, outcome.matrix)
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/] by {outcome.interrupted}: "
                      f"{len(outcome.records)} finished cells of run {outcome.run_id} are "
                      "stored")
        sys.exit(outcome.interrupted.exit_status)
    if outcome.failed:
        console.print(f"[red]{outcome.failed} of {len(outcome.records)} cells failed[/] "
                      f"(run {outcome.run_id})")
        sys.exit(EXIT_FAILED_CELLS)
    console.print(f"run {outcome.run_id}: all {len(outcome.records)} cells ok")
