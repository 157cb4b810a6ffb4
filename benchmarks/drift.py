"""How far apart idle reruns of one spec land, and what that means for `compare`.

Runs SPEC N times into one scratch database, then compares every pair of
runs (i before j) with `mwbench compare`'s own code and prints, per
threshold, the share of idle pairs it would flag as a regression. A CI gate
needs a threshold at which that share is zero; docs/performance.md records
the figure for the reference machine.

    .venv/bin/python benchmarks/drift.py suites/drift.yaml --runs 20
"""

import argparse
import itertools
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from mwbench.comparison import Settings, compare
from mwbench.comparison.runs import load_run
from mwbench.store import Store

THRESHOLDS = (5, 10, 20, 30, 40, 50)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    mwbench = str(Path(sys.executable).parent / "mwbench")
    with tempfile.TemporaryDirectory(prefix="mwbench-drift-") as scratch:
        db = Path(scratch) / "drift.db"
        for _ in range(args.runs):
            subprocess.run([mwbench, "run", str(args.spec), "--db", str(db)], check=True,
                           stdout=subprocess.DEVNULL)
        store = Store.open_existing(db)
        runs = [load_run(store, run["id"]) for run in store.runs()]
        medians: dict[str, dict] = {}
        flagged: dict[str, dict[int, int]] = {}
        pairs = list(itertools.combinations(runs, 2))
        for base, new in pairs:
            for threshold in THRESHOLDS:
                result = compare(base, new, Settings(threshold=threshold / 100))
                for row in result.compared:
                    counts = flagged.setdefault(_name(row.factors), dict.fromkeys(THRESHOLDS, 0))
                    counts[threshold] += row.verdict == "regression"
                    medians.setdefault(_name(row.factors), {})[base.run_id] = row.base.p50_us
                    medians[_name(row.factors)][new.run_id] = row.new.p50_us
        store.close()
    print(f"{args.runs} runs of {args.spec}, {len(pairs)} ordered pairs")
    for name, by_run in medians.items():
        values = np.array(list(by_run.values()))
        print(f"  {name}: run medians {values.min():.2f}-{values.max():.2f} µs "
              f"(max/min {values.max() / values.min():.2f})")
    print("idle pairs flagged as a regression, per threshold:")
    print("  " + " ".join(f"{t:>6d}%" for t in THRESHOLDS) + "  configuration")
    for name, counts in flagged.items():
        print("  " + " ".join(f"{counts[t]:7d}" for t in THRESHOLDS) + f"  {name}")


def _name(factors: dict) -> str:
    return " ".join(str(factors[k]) for k in ("driver", "mode", "transport", "placement"))


if __name__ == "__main__":
    main()
