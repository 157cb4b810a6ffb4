"""`mwbench plan SPEC`: what a run of SPEC would do, without running anything."""

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from .. import paths
from ..factors import NAMES, describe
from ..hosts.inventory import InventoryError
from ..launch_plan import LaunchPlan
from ..launches.chooser import BudgetError
from ..matrix import MatrixError
from ..runner import launch_plan, plan
from ..spec import SpecError, line_of_key
from ..store import Store, StoreError
from .console import make_console
from .options import db_option, overrides_of, spec_options

EXIT_BAD_INPUT = 2
NOT_LABELLED = ("experiment", "launch")  # a column of its own; not yet chosen


@click.command("plan")
@click.argument("spec", type=click.Path(path_type=Path))
@db_option("SQLite database whose calibrations to use (default results/mwbench.db).")
@spec_options
def command(spec: Path, db: Path | None, inventory: Path | None, seed: int | None,
            budget: float | None, experiments: tuple[str, ...], samples: int | None,
            launches: int | None) -> None:
    """Print each configuration SPEC would measure, with its launches, samples per launch,
    expected duration and expected width of its p50's interval, and the run's total; run
    nothing (a dry run).

    The expectations come from the variance between launches and within one, and from
    what a launch and a sample cost, as measured on this machine and stored in the
    database (every run with two launches or more of a configuration measures them).
    With --budget, the launches and samples are the ones the run would choose; what is
    not yet measured here is marked, and the run would calibrate it first.
    --filter, --samples and --launches are `mwbench run`'s overrides.

    Exits 0, or 2 for a spec, inventory or budget that cannot run.

    \b
    Examples:
      mwbench plan suites/main.yaml
      mwbench plan suites/drivers.yaml --budget 2m
    """
    overrides = overrides_of(experiments, samples, launches, budget)
    console = make_console()
    db = db or paths.default_db()
    try:
        loaded, text, _, matrix, _ = plan(spec, inventory, seed, overrides)
        budget_source = "--budget" if budget is not None else \
            f"{spec}:{line_of_key(text, ['budget'])}: budget:"
        if budget is None and not overrides.fixes_the_plan():
            budget = loaded.budget
        for note in loaded.notes:
            console.print(escape(note), style="yellow", highlight=False)
        store = Store.open_existing(db) if Path(db).is_file() else None
        try:
            planned = launch_plan(matrix, store, budget, budget_source)
        finally:
            if store is not None:
                store.close()
    except (SpecError, InventoryError, MatrixError, StoreError, BudgetError) as error:
        click.echo(f"mwbench plan: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    _print(console, planned, matrix.seed)


def _print(console, planned: LaunchPlan, seed: int) -> None:
    how = (f"chosen for a budget of {planned.budget_s:g} s" if planned.budget_s
           else "as the spec sets them")
    table = Table(title=f"Plan: launches and samples {how}; expected from the variance "
                        "measured on this machine")
    for heading in ("experiment", "configuration", "launches", "samples", "expected s",
                    "p50 interval ±", "variance here"):
        table.add_column(heading, justify="right" if heading in
                         {"launches", "samples", "expected s", "p50 interval ±"} else "left")
    for row in planned.rows:
        cell = row.configuration
        state = {"fresh": f"measured {row.lookup.measured_utc}",
                 "stale": f"stale ({row.lookup.measured_utc}): assumed",
                 "missing": "not measured: assumed"}[row.lookup.state]
        width = "-" if row.half_width is None else f"{row.half_width:.1%}"
        label = " ".join(describe(cell.levels, [n for n in NAMES if n not in NOT_LABELLED]))
        table.add_row(cell["experiment"], escape(label), str(row.launches), f"{row.samples:,}",
                      f"{row.duration_s:,.1f}", width, state)
    console.print(table)
    launches = sum(row.launches for row in planned.rows)
    console.print(f"{len(planned.rows)} configurations, {launches} launches in randomised "
                  f"blocks (seed {seed}); expected {planned.duration_s:,.0f} s of launches")
    if planned.to_calibrate:
        console.print(
            f"{len(planned.to_calibrate)} configuration(s) have no fresh variance here: "
            + (f"the run calibrates them first (about {planned.calibration_s:,.0f} s, within "
               "the budget), then chooses again" if planned.budget_s else
               "their figures above are assumed; any run of two launches or more measures "
               "them"))
