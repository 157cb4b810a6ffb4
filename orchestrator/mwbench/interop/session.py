"""`mwbench interop`: every client ORB against every server ORB, stored as one run.

For each kind (object, component), each call and each (client ORB, server
ORB) pair, in that order, one pair runs (pairs.py) and its result is stored
at once (the store's `interop` table), so that an interrupted matrix keeps
what it found. The run is an ordinary run of the store (suite `interop`, the
machine's disclosure, a ledger of what it started, what a run killed earlier
left removed first), whose cells table holds nothing: its results are the
matrix, which `mwbench report` draws (report/interop.py).
"""

import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from .. import __version__, environment, ledger
from ..interruption import Interrupted, check
from ..ledger import Ledger
from ..leftovers import clean_dead_runs, end_what_remains
from ..store import Store
from .orbs import BY_NAME
from .pairs import Call, PairResult, Settings, run_pair

SUITE = "interop"


@dataclass
class Outcome:
    run_id: int
    results: list[PairResult]
    interrupted: Interrupted | None

    @property
    def failed(self) -> list[PairResult]:
        return [r for r in self.results if r.status == "fail"]


def calls_of(operations: list[str], sizes: list[int]) -> list[Call]:
    """The calls of the matrix: a round trip carries no payload; the octets at each size."""
    return [call for operation in operations for call in (
        [Call(operation, 0)] if operation == "roundtrip"
        else [Call(operation, size) for size in sizes])]


def describe_matrix(orbs: list[str], kinds: list[str], calls: list[Call],
                    settings: Settings) -> str:
    """What the run measured, stored as its spec's text and shown in the disclosure."""
    return (f"# mwbench interop\norbs: [{', '.join(orbs)}]\nkinds: [{', '.join(kinds)}]\n"
            f"calls: [{', '.join(call.label() for call in calls)}]\n"
            f"samples: {settings.samples}\nwarmup: {settings.warmup}\n"
            f"timeout_s: {settings.timeout_s:g}\n")


def run_interop(db_path: Path, orbs: list[str], kinds: list[str], calls: list[Call],
                settings: Settings, console: Console) -> Outcome:
    """Run and store the matrix; a stop signal ends it `interrupted` once the current
    pair's processes are stopped (the caller installs the handlers)."""
    check()
    store = Store.create_or_open(db_path)
    own_ledger = Ledger(str(db_path.resolve()))
    ledger.activate(own_ledger)
    results: list[PairResult] = []
    interrupted = None
    try:
        for line in clean_dead_runs():
            console.print(f"[yellow]removed[/]: {line}")
        run_id = store.begin_run(SUITE, "mwbench interop", describe_matrix(
            orbs, kinds, calls, settings), environment.collect(), __version__)
        own_ledger.run_id = run_id
        console.print(f"run {run_id}: interop matrix of {', '.join(orbs)} "
                      f"({len(kinds)} kinds x {len(calls)} calls x {len(orbs) ** 2} pairs), "
                      f"database {store.path}")
        try:
            for kind, call, client, server in itertools.product(kinds, calls, orbs, orbs):
                check()
                result = run_pair(BY_NAME[client].side(kind), BY_NAME[server].side(kind),
                                  call, settings)
                store.add_interop_result(run_id, result.row())
                results.append(result)
                if result.status != "skipped":
                    console.print(escape(one_line(result)), highlight=False)
        except Interrupted as signal_taken:
            interrupted = signal_taken
        finally:
            store.end_run(run_id, "interrupted" if interrupted else "finished")
        for reason, count in Counter(r.reason for r in results if r.status == "skipped").items():
            console.print(escape(f"skipped {count} pairs: {reason}"), highlight=False)
    finally:
        ledger.activate(None)
        end_what_remains(own_ledger)
        own_ledger.close()
        store.close()
    return Outcome(run_id, results, interrupted)


def one_line(result: PairResult) -> str:
    """A pair as the console shows it while the matrix runs."""
    pair = (f"{result.kind} {result.call.label()}: {result.client.orb} -> "
            f"{result.server.orb}")
    if result.status == "pass":
        return f"{pair}: pass, median {result.p50_us:.1f} us"
    if result.status == "fail":
        return f"{pair}: FAIL ({result.reason}): {shortened(result.line or '')}"
    return f"{pair}: skipped: {result.reason}"


def shortened(line: str, limit: int = 200) -> str:
    """A line cut to `limit` characters (an endpoint's IORs run to kilobytes)."""
    return line if len(line) <= limit else line[:limit - 3] + "..."
