"""What the study scripts share: their arguments (the database, --run), a stored run's
launches by configuration, and ratios of two configurations taken launch by launch, with
their 95% intervals (mwbench/launches).

The k-th launches of two configurations of a run ran in the same block of its
randomised order, so their ratio cancels what the machine did to both at that
time; the figure is the median over launch pairs, its interval that of the
paired hierarchical bootstrap. A ratio whose interval holds 1 is written as
indistinguishable from 1, so that a reader does not take a draw for a finding.
"""

import argparse
from collections import defaultdict
from collections.abc import Callable

import numpy as np

from mwbench.launches.estimate import Estimate, paired_ratio
from mwbench.store import Store


def study_arguments(doc: str) -> argparse.ArgumentParser:
    """The arguments every study script takes: the database and --run; a script adds its
    own before parse_args()."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--run", type=int, help="the run (default: the latest)")
    return parser


def open_run(args: argparse.Namespace) -> tuple[Store, int]:
    """The database of `args` and the run it names (the latest if none)."""
    store = Store.open_existing(args.db)
    return store, args.run or store.latest_run_id()


def launches_by(store: Store, run_id: int, key_of: Callable[[dict], tuple | None]
                ) -> dict[tuple, dict[int, np.ndarray]]:
    """key_of(cell) -> {launch: its per-call times in µs}, ok cells only (key None: left
    out)."""
    found: dict[tuple, dict[int, np.ndarray]] = defaultdict(dict)
    for cell in store.cells(run_id, spec_order=True):
        key = key_of(cell) if cell["status"] == "ok" else None
        if key is not None:
            found[key][cell["launch"]] = store.samples(cell["id"]) / (cell["batch_size"] or 1) / 1e3
    return dict(found)


def ratio(numerators: dict[int, np.ndarray], denominators: dict[int, np.ndarray],
          key: object = None) -> Estimate | None:
    """The median ratio of two configurations, launch by launch, with its interval."""
    return paired_ratio(numerators, denominators, 50, key=key)


def text(estimate: Estimate | None, digits: int = 2) -> str:
    """`1.08 [1.06–1.10]`, `1.01 [0.97–1.05], indistinguishable from 1`, or `–`."""
    if estimate is None:
        return "–"
    if estimate.includes(1.0):
        return f"{estimate.text(digits)}, indistinguishable from 1"
    return estimate.text(digits)
