"""`mwbench run`: a spec in, one stored run out.

The workflow, in order: validate the spec and its host inventory, ask the
drivers what they support, expand the matrix, disclose the environment (of every
host the cells use), then run and store the cells one by one. A failed cell is
stored with its reason and the run goes on; Ctrl-C, SIGTERM and SIGHUP stop it
after stopping the current cell's processes, and every finished cell is already
in the database. What the run starts is in its ledger (ledger.py) until it is
gone, so that a run killed outright is cleaned up by the next.
"""

import dataclasses
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from ruamel.yaml import YAML

from . import __version__, environment, ledger
from .cell import run_cell
from .drivers import describe, known_driver_names
from .hosts import disclosure
from .hosts.inventory import LOCAL, load_inventory, local_host
from .hosts.topology import Topology
from .interruption import Interrupted, check
from .launch_plan import LaunchPlan, following, make_plan, open_loop_problems
from .launches import calibration
from .launches.chooser import BudgetError
from .ledger import Ledger
from .leftovers import clean_dead_runs, end_what_remains
from .matrix import Matrix, MatrixError, expand, scheduled
from .overrides import NONE, Overrides, overridden
from .progress import launches_progress
from .spec import line_of_key, load_spec
from .spec_text import line_of_name
from .store import CellRecord, Store


@dataclass
class RunOutcome:
    run_id: int
    records: list[CellRecord]
    matrix: Matrix
    interrupted: Interrupted | None  # the stop signal that ended the run early

    @property
    def failed(self) -> int:
        return sum(1 for record in self.records if record.status != "ok")


def plan(spec_path: Path, inventory_path: Path | None = None, seed: int | None = None,
         overrides: Overrides = NONE):
    """Validate the spec and its inventory (`inventory_path`, else the spec's own) and
    expand it with the command line's `overrides`, its launches ordered by `seed` (else
    the spec's, else a new one); raises SpecError, InventoryError or MatrixError before
    anything runs."""
    spec, text = load_spec(spec_path)
    spec = overridden(spec, overrides, spec_path)
    if inventory_path is None and spec.inventory is not None:
        inventory_path = Path(spec_path).parent / spec.inventory
    inventory = load_inventory(inventory_path) if inventory_path else {LOCAL: local_host()}
    drivers = {name: describe(name) for name in known_driver_names()}
    try:
        matrix = expand(spec, drivers, inventory, seed)
    except MatrixError as error:  # named where the spec says it, as the spec's own errors
        line = line_of_name(YAML(typ="rt").load(text), *error.location) \
            if error.location else None
        raise MatrixError(f"{spec_path}{f':{line}' if line else ''}: {error}") from None
    return spec, text, drivers, matrix, inventory


def this_machine() -> str:
    """The machine the calibrations of this run belong to (launches/calibration.py)."""
    return calibration.machine_key(environment.machine(), platform.release())


def launch_plan(matrix: Matrix, store: Store | None, budget_s: float | None,
                budget_source: str) -> LaunchPlan:
    """The plan of the matrix from the store's calibrations of this machine (none without
    a store); BudgetError, naming `budget_source`, when the budget cannot hold it, or
    when an open loop's rate makes a launch outlast its cell's timeout."""
    machine = this_machine()
    lookups = [calibration.look_up(store, machine, c.factors()) if store
               else calibration.Lookup(None, "missing") for c in matrix.configurations]
    try:
        planned = make_plan(matrix, lookups, budget_s)
    except BudgetError as error:
        raise BudgetError(f"{budget_source} {error}") from None
    if problems := open_loop_problems(planned):
        raise BudgetError("\n".join(problems))
    return planned


def hosts_used(matrix: Matrix) -> list[str]:
    """The hosts the cells run processes on, in the order cells first use them."""
    names: dict[str, None] = {}
    for cell in matrix.cells:
        fanout = cell["subscribers"] is not None
        processes = cell.subscriber_process_count if fanout else 1
        names.update(dict.fromkeys(
            Topology.of(cell["hosts"]).hosts(cell["mode"], fanout, processes)))
    return list(names)


def run_suite(spec_path: Path, db_path: Path, console: Console,
              inventory_path: Path | None = None, seed: int | None = None,
              budget_s: float | None = None, overrides: Overrides = NONE
              ) -> RunOutcome:
    """Plan, then run and store every cell. With a budget (`budget_s`, else the spec's),
    the configurations whose variance is not known here are calibrated first, and the
    chooser spends the rest (launches/). A stop signal (interruption.py) ends the run
    `interrupted` once the current cell's processes are stopped; the caller installs the
    handlers. What a run killed earlier left behind is removed first (leftovers.py).
    `--samples` or `--launches` among the overrides set what the spec's budget would
    choose: that budget is then left aside, with a note."""
    spec, text, drivers, matrix, inventory = plan(spec_path, inventory_path, seed, overrides)
    budget_source = "--budget" if budget_s is not None else \
        f"{spec_path}:{line_of_key(text, ['budget'])}: budget:"
    notes = list(spec.notes)
    if budget_s is None and spec.budget is not None and (flag := overrides.fixes_the_plan()):
        notes.append(f"{budget_source} left aside: {flag} sets what it would choose")
    elif budget_s is None:
        budget_s = spec.budget
    for note in notes:
        console.print(escape(note), style="yellow", highlight=False)
    check()  # stopped while planning: no run is begun
    store = Store.create_or_open(db_path)
    try:
        planned = launch_plan(matrix, store, budget_s, budget_source)  # refused before a run
    except BudgetError:
        store.close()
        raise
    try:
        with measuring(spec.suite, spec_path, text, drivers, store, matrix, inventory,
                       console) as run:
            return _run_planned(run, matrix, planned, budget_s, budget_source, overrides)
    finally:
        store.close()


@contextmanager
def measuring(suite: str, spec_path: Path, text: str, drivers: dict, store: Store,
              matrix: Matrix, inventory: dict, console: Console) -> Iterator["_Run"]:
    """What running the cells of `matrix` needs around them (`mwbench run`, `mwbench
    saturate`): a ledger of what they start, the launchers of the hosts they use, what a
    run killed earlier left removed first; all ended, whatever happens, on leaving."""
    run_ledger = Ledger(str(Path(store.path).resolve()))
    ledger.activate(run_ledger)
    launchers = {name: disclosure.launcher(inventory[name]) for name in hosts_used(matrix)}
    try:
        for line in clean_dead_runs():
            console.print(f"[yellow]removed[/]: {line}")
        yield _Run(suite, spec_path, text, drivers, store, run_ledger, console, launchers)
    finally:
        for launcher in launchers.values():
            launcher.close()
        ledger.activate(None)
        end_what_remains(run_ledger)
        run_ledger.close()


def _run_planned(run: "_Run", matrix: Matrix, planned: LaunchPlan, budget_s: float | None,
                 budget_source: str, overrides: Overrides) -> RunOutcome:
    """The run of `matrix` as planned; with a budget, calibrated first and planned again."""
    chosen = None
    if budget_s is not None:
        started = time.monotonic()
        if planned.to_calibrate:
            _calibrate(run, matrix, planned)
        calibrating_s = time.monotonic() - started
        planned = launch_plan(matrix, run.store, budget_s - calibrating_s,
                              f"{budget_source} (less {calibrating_s:.1f} s of calibration)")
        matrix = following(matrix, planned)
        chosen = {**planned.record(), "budget_s": budget_s,
                  "calibration_s": round(calibrating_s, 3)}
    if overrides:
        chosen = {**(chosen or {}), "overrides": overrides.record()}
    outcome = run.cells(matrix, chosen)
    calibration.record_run(run.store, this_machine(), outcome.run_id)
    return outcome


@dataclass
class _Run:
    """What every run of one `mwbench run` (or `saturate`) shares: the spec's text, the
    drivers, the store, the ledger, the console and the hosts' launchers."""

    suite: str
    spec_path: Path
    text: str
    drivers: dict
    store: Store
    ledger: Ledger
    console: Console
    launchers: dict

    def cells(self, matrix: Matrix, planned: dict | None, suite: str | None = None
              ) -> RunOutcome:
        """Run and store the launches of `matrix` as one run, in their order."""
        run_id = self.begin(matrix.seed, planned, suite,
                            f"{len(matrix.configurations)} configurations, "
                            f"{len(matrix.cells)} launches in randomised blocks")
        records: list[CellRecord] = []
        interrupted: Interrupted | None = None
        try:
            interrupted = self.measure(run_id, matrix.cells, records)
        finally:
            self.store.end_run(run_id, "interrupted" if interrupted else "finished")
        return RunOutcome(run_id, records, matrix, interrupted)

    def begin(self, seed: int | None, planned: dict | None, suite: str | None,
              what: str) -> int:
        """A new run in the store, the other hosts it uses disclosed; says so with `what`
        it will measure."""
        hosts = None
        if set(self.launchers) - {LOCAL}:  # a run on this machine alone discloses it once
            hosts = disclosure.disclose(self.launchers)
            for name, entry in hosts.items():
                if entry["error"]:
                    self.console.print(f"[yellow]host {name}[/]: no disclosure: "
                                       f"{entry['error']}")
            for line in disclosure.differences(hosts):
                self.console.print(f"[yellow]warning[/]: {line}")
        suite = suite or self.suite
        run_id = self.store.begin_run(suite, str(self.spec_path), self.text,
                                      environment.collect(), __version__, hosts, seed, planned)
        self.ledger.run_id = run_id
        self.console.print(f"run {run_id}: suite [bold]{suite}[/], {what} (seed {seed}), "
                           f"database {self.store.path}")
        return run_id

    def measure(self, run_id: int, cells: list, records: list[CellRecord]
                ) -> Interrupted | None:
        """Run `cells` in their order, each stored in run `run_id` and added to `records`
        as it ends; the stop signal that ended them early, if one did."""
        try:
            with launches_progress(self.console, len(cells)) as progress:
                for cell in cells:
                    check()
                    progress.start(cell.label())
                    record = run_cell(cell, self.drivers[cell["driver"]], self.launchers)
                    self.store.add_cell(run_id, record)
                    records.append(record)
                    if record.status != "ok":
                        self.console.print(f"[red]failed[/] {cell.label()}: "
                                           f"{(record.error or '').splitlines()[0]}")
                    progress.advance(cell.label())
        except Interrupted as signal_taken:
            return signal_taken
        return None


def _calibrate(run: _Run, matrix: Matrix, planned: LaunchPlan) -> None:
    """Measure the variance of the configurations the plan lacks (calibration.py), as a run
    of its own, and store their components; a stop signal propagates."""
    configurations = [dataclasses.replace(c, launches=calibration.CALIBRATION_LAUNCHES,
                                          samples=calibration.CALIBRATION_SAMPLES)
                      for c in planned.to_calibrate]
    short = dataclasses.replace(matrix, configurations=configurations,
                                cells=scheduled(configurations, matrix.seed))
    run.console.print(f"calibrating {len(configurations)} configuration(s) whose variance "
                      f"is not known on this machine (about {planned.calibration_s:.0f} s)")
    outcome = run.cells(short, None, suite=f"{run.suite}.calibration")
    if outcome.interrupted:
        raise outcome.interrupted
    calibration.record_run(run.store, this_machine(), outcome.run_id)
