"""How often `mwbench compare` raises a false alarm between idle reruns, and how often it
finds a real slowdown.

Runs SPEC N times into a scratch database (idle reruns), then, for each of its
configurations alone, N runs slowed on purpose by SLOWDOWN percent of that
configuration's median (MWBENCH_INJECT_DELAY_NS: the measuring process
busy-waits that long in every call). Then, with `compare`'s own code at
THRESHOLD percent:

- false alarms: every pair of idle runs (i before j), per configuration, the
  share called a regression or an improvement;
- detection: every pair (idle run, slowed run), per configuration, the share
  called a regression;
- and how many pairs were "not resolvable" (idle and slowed), how many slowed
  pairs were called "no change", the slowdown the slowed runs actually
  showed (their median over the idle run's, launch level), and the smallest
  change the runs could have detected.

docs/performance.md records the figures of the reference machine; the goal is at
most 5% false alarms at 10% and at least 95% detection of 15%.

    .venv/bin/python benchmarks/drift.py suites/drift.yaml --runs 10
"""

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
from ruamel.yaml import YAML

from mwbench.comparison import IMPROVEMENT, NO_CHANGE, NOT_RESOLVABLE, REGRESSION, Settings, compare
from mwbench.comparison.runs import describe_factors, load_run
from mwbench.factors import FACTORS
from mwbench.runner import plan
from mwbench.store import Store

RUN_SETTINGS = ("warmup", "samples", "launches", "batch", "timeout_s")


def mwbench(*args: str, delay_ns: int | None = None) -> None:
    environment = {k: v for k, v in os.environ.items() if k != "MWBENCH_INJECT_DELAY_NS"}
    if delay_ns:
        environment["MWBENCH_INJECT_DELAY_NS"] = str(delay_ns)
    subprocess.run([str(Path(sys.executable).parent / "mwbench"), *args], check=True,
                   stdout=subprocess.DEVNULL, env=environment)


def alone(cell, folder: Path, index: int) -> Path:
    """A spec holding one configuration of the matrix, as its cells were asked."""
    experiment = {"name": cell["experiment"]}
    for factor in FACTORS:
        level = cell[factor.name]
        if factor.spec_key and level is not None and factor.name != "options":
            experiment[factor.spec_key] = [level]
    if cell["options"]:
        experiment["options"] = {key: [value] for key, value in cell["options"].items()}
    experiment.update({key: getattr(cell, key) for key in RUN_SETTINGS})
    path = folder / f"alone-{index}.yaml"
    with path.open("w") as stream:
        YAML().dump({"suite": "alone", "experiments": [experiment]}, stream)
    return path


def rates(pairs, settings: Settings, wanted) -> dict[str, list]:
    """Per configuration: the verdicts and smallest detectable changes of `pairs`, for the
    configurations `wanted(name)` accepts."""
    found = defaultdict(list)
    for base, new in pairs:
        for row in compare(base, new, settings).compared:
            name = describe_factors(row.factors)
            if wanted(name):
                found[name].append((row.verdict, row.detectable, row.ratio))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--threshold", type=float, default=10.0, help="percent")
    parser.add_argument("--slowdown", type=float, default=15.0, help="percent")
    args = parser.parse_args()
    settings = Settings(threshold=args.threshold / 100)
    _, _, _, matrix, _ = plan(args.spec)
    with tempfile.TemporaryDirectory(prefix="mwbench-drift-") as scratch:
        db = str(Path(scratch) / "drift.db")
        for _ in range(args.runs):
            mwbench("run", str(args.spec), "--db", db)
        store = Store.open_existing(db)
        idle = [load_run(store, run["id"]) for run in store.runs()]
        medians = {key: np.median([np.median(np.concatenate(list(
            run.configurations[key].launches.values()))) for run in idle])
            for key in idle[0].configurations}
        store.close()
        slowed_ids = {}
        for index, cell in enumerate(matrix.configurations):
            key = next(k for k, c in idle[0].configurations.items()
                       if c.factors == {n: cell.levels[n] for n in c.factors})
            delay = int(medians[key] * args.slowdown / 100)
            spec = alone(cell, Path(scratch), index)
            before = len(Store.open_existing(db).runs())
            for _ in range(args.runs):
                mwbench("run", str(spec), "--db", db, delay_ns=delay)
            slowed_ids[describe_factors(idle[0].configurations[key].factors)] = \
                list(range(before + 1, before + args.runs + 1))
        store = Store.open_existing(db)
        alarms = rates(itertools.combinations(idle, 2), settings, lambda name: True)
        detected = {}
        for name, ids in slowed_ids.items():
            slowed = [load_run(store, run_id) for run_id in ids]
            detected.update(rates(itertools.product(idle, slowed), settings,
                                  lambda n, name=name: n == name))
        store.close()
    print(f"{args.runs} idle runs of {args.spec} and {args.runs} runs of each configuration "
          f"slowed by {args.slowdown:g}%; compare at a {args.threshold:g}% threshold")
    print("\n| configuration | idle pairs | false alarms | not resolvable | slowed pairs | "
          "detected | slowed, not resolvable | slowed, called no change | "
          "slowed ÷ idle (median) | smallest detectable (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, verdicts in alarms.items():
        flagged = sum(v in (REGRESSION, IMPROVEMENT) for v, _, _ in verdicts)
        unresolved = sum(v == NOT_RESOLVABLE for v, _, _ in verdicts)
        found = detected.get(name, [])
        caught = sum(v == REGRESSION for v, _, _ in found)
        slowed_unresolved = sum(v == NOT_RESOLVABLE for v, _, _ in found)
        missed = sum(v == NO_CHANGE for v, _, _ in found)
        measured = [r for _, _, r in found if r is not None]
        slowdown = f"{np.median(measured):.3f}" if measured else "-"
        detectable = [d for _, d, _ in verdicts if d is not None]
        smallest = f"{np.median(detectable):.1%}" if detectable else "-"
        print(f"| {name} | {len(verdicts)} | {flagged} ({flagged / len(verdicts):.0%}) | "
              f"{unresolved} | {len(found)} | {caught} ({caught / max(len(found), 1):.0%}) | "
              f"{slowed_unresolved} | {missed} | {slowdown} | {smallest} |")

if __name__ == "__main__":
    main()
