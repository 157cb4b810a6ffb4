"""`mwbench run SPEC`: run every cell of a spec and store the results."""

import sys
from pathlib import Path

import click

from .. import paths
from ..hosts.inventory import InventoryError
from ..launches.chooser import BudgetError
from ..leftovers import LeftoverError
from ..matrix import MatrixError
from ..runner import run_suite
from ..spec import SpecError
from ..store import StoreError
from ..summary import print_summary
from .console import make_console
from .options import db_option, overrides_of, spec_options
from .refusals import refused_or_begun

EXIT_FAILED_CELLS = 1


@click.command("run")
@click.argument("spec", type=click.Path(path_type=Path))
@db_option("SQLite database to add the run to (default results/mwbench.db).")
@spec_options
def command(spec: Path, db: Path | None, inventory: Path | None, seed: int | None,
            budget: float | None, experiments: tuple[str, ...], samples: int | None,
            launches: int | None) -> None:
    """Run the experiments of SPEC (a YAML file) and store every cell.

    Each configuration is measured by several launches (`launches:` in the
    spec), each a new set of processes, run in randomised blocks: every
    configuration's k-th launch before any (k+1)-th, in an order drawn from
    the seed. With --budget (or `budget:` in the spec), the launches and
    samples of each cell are chosen from the variance measured on this
    machine; what is not yet measured is calibrated first. `mwbench plan
    SPEC` shows what a run will do without running it.

    --filter, --samples and --launches run less, or otherwise, than the spec
    says, without editing it: the run records them and the report's
    disclosure names them. --samples and --launches set what a budget would
    choose, so they do not go with --budget (and a spec's `budget:` is then
    left aside, with a note).

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
      mwbench run suites/drivers.yaml --budget 2m
      mwbench run suites/quick.yaml --seed 1234   # the order of an earlier run
      mwbench run suites/main.yaml --filter roundtrip --samples 500 --launches 2
    """
    overrides = overrides_of(experiments, samples, launches, budget)
    console = make_console()
    with refused_or_begun("run", (SpecError, InventoryError, MatrixError, StoreError,
                                  LeftoverError, BudgetError), "any cell ran"):
        outcome = run_suite(spec, db or paths.default_db(), console, inventory, seed, budget,
                            overrides)
    print_summary(console, outcome.records, outcome.matrix)
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/] by {outcome.interrupted}: "
                      f"{len(outcome.records)} finished launches of run {outcome.run_id} are "
                      "stored")
        sys.exit(outcome.interrupted.exit_status)
    if outcome.failed:
        console.print(f"[red]{outcome.failed} of {len(outcome.records)} launches failed[/] "
                      f"(run {outcome.run_id})")
        sys.exit(EXIT_FAILED_CELLS)
    console.print(f"run {outcome.run_id}: all {len(outcome.records)} launches ok")
