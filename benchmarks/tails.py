"""Where a standard deviation comes from: the body of the distribution or its rare tail.

On a shared virtual machine a call is now and then held up for 0.1 to 1 ms
(a timer tick given to another task, a vCPU descheduled by the host). One
such call in 10,000 moves a standard deviation by more than everything else
together, so a difference in "jitter" between two configurations can be a
difference in how many of those they happened to meet. This script splits
each configuration of one experiment of a stored run at a threshold and
prints, per configuration: the standard deviation of all calls, of the calls
under the threshold (the body), the calls over it per 10,000, and those over
1 ms; then, for two configurations named with --compare, a Mann-Whitney test
of their per-launch tail counts (is one tail really more frequent?).

    .venv/bin/python benchmarks/tails.py results/ccmperf/ccmperf.db scenarios \\
        --by scenario --compare obj-obj comp-comp
"""

import argparse
import json
import sqlite3
import zlib
from collections import defaultdict

import numpy as np
from scipy.stats import mannwhitneyu


def per_launch(db: sqlite3.Connection, experiment: str, option: str | None,
                   run_id: int | None) -> dict[str, list[np.ndarray]]:
    """Per-call samples (µs) of each configuration, one array per launch."""
    query = ("SELECT cells.id, driver, mode, transport, options, batch_size, data "
             "FROM cells JOIN samples ON samples.cell_id = cells.id "
             "WHERE experiment = ? AND status = 'ok'")
    args: list = [experiment]
    if run_id is not None:
        query += " AND run_id = ?"
        args.append(run_id)
    found: dict[str, list[np.ndarray]] = defaultdict(list)
    for row in db.execute(query, args):
        options = json.loads(row["options"] or "{}")
        name = ((options.get(option) if option else None)
                or f"{row['driver']} {row['mode']} {row['transport']}")
        samples = np.frombuffer(zlib.decompress(row["data"]), dtype="<i8")
        found[name].append(samples / (row["batch_size"] or 1) / 1000.0)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("experiment")
    parser.add_argument("--by", help="a driver option naming the configurations "
                        "(default: driver, mode and transport)")
    parser.add_argument("--run", type=int, help="one run id (default: every run in the db)")
    parser.add_argument("--threshold-us", type=float, default=100.0)
    parser.add_argument("--compare", nargs=2, metavar="CONFIG")
    args = parser.parse_args()

    db = sqlite3.connect(args.db)
    db.row_factory = sqlite3.Row
    found = per_launch(db, args.experiment, args.by, args.run)
    if not found:
        raise SystemExit(f"{args.db}: no ok cells with samples in experiment {args.experiment!r}")
    cut = args.threshold_us
    print(f"{'configuration':16} {'reps':>4} {'calls':>8} {'p50':>7} {'p99':>7} {'std':>7} "
          f"{'std<' + format(cut, 'g'):>8} {'>cut/10k':>9} {'>1ms/10k':>9}")
    tails: dict[str, list[float]] = {}
    for name, reps in sorted(found.items()):
        calls = np.concatenate(reps)
        tails[name] = [float((r > cut).mean() * 1e4) for r in reps]
        p50, p99 = np.percentile(calls, [50, 99])
        print(f"{name:16} {len(reps):4} {calls.size:8} {p50:7.2f} {p99:7.2f} {calls.std():7.1f} "
              f"{calls[calls < cut].std():8.2f} {(calls > cut).mean() * 1e4:9.1f} "
              f"{(calls > 1000).mean() * 1e4:9.2f}")
    if args.compare:
        a, b = args.compare
        for name in (a, b):
            if name not in tails:
                raise SystemExit(f"--compare {name}: no such configuration "
                                 f"(have: {', '.join(sorted(tails))})")
        test = mannwhitneyu(tails[a], tails[b])
        print(f"\ncalls over {cut:g} µs per 10,000, per launch: {a} median "
              f"{np.median(tails[a]):.1f}, {b} median {np.median(tails[b]):.1f}; "
              f"Mann-Whitney U = {test.statistic:.0f}, p = {test.pvalue:.2f}")


if __name__ == "__main__":
    main()
