"""`mwbench run`: a spec in, one stored run out.

The workflow, in order: validate the spec and its host inventory, ask the
drivers what they support, expand the matrix, disclose the environment (of every
host the cells use), then run and store the cells one by one. A failed cell is
stored with its reason and the run goes on; Ctrl-C, SIGTERM and SIGHUP stop it
after stopping the current cell's processes, and every finished cell is already
in the database. What the run starts is in its ledger (ledger.py) until it is
gone, so that a run killed outright is cleaned up by the next.
"""

from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from . import __version__, environment, ledger
from .cell import run_cell
from .drivers import describe, known_driver_names
from .hosts import disclosure
from .hosts.inventory import LOCAL, load_inventory, local_host
from .hosts.topology import Topology
from .interruption import Interrupted, check
from .ledger import Ledger
from .leftovers import clean_dead_runs, end_what_remains
from .matrix import Matrix, expand
from .spec import load_spec
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


def plan(spec_path: Path, inventory_path: Path | None = None):
    """Validate the spec and its inventory (`inventory_path`, else the spec's own) and
    expand it; raises SpecError, InventoryError or MatrixError before anything runs."""
    spec, text = load_spec(spec_path)
    if inventory_path is None and spec.inventory is not None:
        inventory_path = Path(spec_path).parent / spec.inventory
    inventory = load_inventory(inventory_path) if inventory_path else {LOCAL: local_host()}
    drivers = {name: describe(name) for name in known_driver_names()}
    return spec, text, drivers, expand(spec, drivers, inventory), inventory


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
              inventory_path: Path | None = None) -> RunOutcome:
    """Plan, then run and store every cell. A stop signal (interruption.py) ends the run
    `interrupted` once the current cell's processes are stopped; the caller installs the
    handlers. What a run killed earlier left behind is removed first (leftovers.py)."""
    spec, text, drivers, matrix, inventory = plan(spec_path, inventory_path)
    check()  # stopped while planning: no run is begun
    store = Store.create_or_open(db_path)
    run_ledger = Ledger(str(db_path.resolve()))
    ledger.activate(run_ledger)
    launchers = {name: disclosure.launcher(inventory[name]) for name in hosts_used(matrix)}
    try:
        for line in clean_dead_runs():
            console.print(f"[yellow]removed[/]: {line}")
        return _run_cells(spec, spec_path, text, drivers, matrix, store, run_ledger, console,
                          launchers)
    finally:
        for launcher in launchers.values():
            launcher.close()
        ledger.activate(None)
        end_what_remains(run_ledger)
        run_ledger.close()
        store.close()


def _run_cells(spec, spec_path: Path, text: str, drivers, matrix: Matrix, store: Store,
               run_ledger: Ledger, console: Console, launchers: dict) -> RunOutcome:
    hosts = None
    if set(launchers) - {LOCAL}:  # a run on this machine alone discloses it once
        hosts = disclosure.disclose(launchers)
        for name, entry in hosts.items():
            if entry["error"]:
                console.print(f"[yellow]host {name}[/]: no disclosure: {entry['error']}")
        for line in disclosure.differences(hosts):
            console.print(f"[yellow]warning[/]: {line}")
    run_id = store.begin_run(spec.suite, str(spec_path), text, environment.collect(), __version__,
                             hosts)
    run_ledger.run_id = run_id
    console.print(f"run {run_id}: suite [bold]{spec.suite}[/], {len(matrix.cells)} cells, "
                  f"database {store.path}")
    records: list[CellRecord] = []
    interrupted: Interrupted | None = None
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    try:
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("", total=len(matrix.cells))
            for cell in matrix.cells:
                check()
                progress.update(task, description=cell.label())
                record = run_cell(cell, drivers[cell["driver"]], launchers)
                store.add_cell(run_id, record)
                records.append(record)
                if record.status != "ok":
                    console.print(f"[red]failed[/] {cell.label()}: "
                                  f"{(record.error or '').splitlines()[0]}")
                progress.advance(task)
    except Interrupted as signal_taken:
        interrupted = signal_taken
    finally:
        store.end_run(run_id, "interrupted" if interrupted else "finished")
    return RunOutcome(run_id, records, matrix, interrupted)
