"""Median round trips of a run, over its repetitions, against the raw-socket baseline.

For each configuration (every factor but the repetition): the median over
repetitions of the cell medians and p99s, the spread of the medians (min–max),
and the median over repetitions of the per-repetition ratio to the rawtcp
cell of the same transport family, placement and repetition. Prints a
Markdown table for docs/performance.md.

    .venv/bin/python benchmarks/baseline_table.py --db results/mwbench.db [--run ID]
"""

import argparse
import statistics
from collections import defaultdict

from mwbench.baseline import median_ratios
from mwbench.export import cell_records
from mwbench.store import Store

CONFIG_KEYS = ("driver", "mode", "transport", "operation", "payload_bytes", "placement",
               "idle_hold")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="results/mwbench.db")
    parser.add_argument("--run", type=int, default=None, help="run id (default: the latest)")
    args = parser.parse_args()
    store = Store.open_existing(args.db)
    run_id = args.run or store.latest_run_id()
    cells = [c for c in cell_records(store, [run_id]) if c["status"] == "ok"]
    ratios = median_ratios([(c, c["p50_us"]) for c in cells])

    groups: dict[tuple, list] = defaultdict(list)
    for cell, ratio in zip(cells, ratios, strict=True):
        groups[tuple(cell[k] for k in CONFIG_KEYS)].append((cell, ratio))

    print(f"Run {run_id}: median over repetitions (µs per call)\n")
    print("| driver | mode | transport | placement | idle hold | reps | p50 | p50 min–max "
          "| p99 | ×raw (p50) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, members in groups.items():
        config = dict(zip(CONFIG_KEYS, key, strict=True))
        medians = [c["p50_us"] for c, _ in members]
        p99s = [c["p99_us"] for c, _ in members]
        held = {c["idle_hold_held"] for c, _ in members}
        hold = "off" if not config["idle_hold"] else "held" if held == {True} else "not held"
        ratio_values = [r for _, r in members if r is not None]
        ratio = f"{statistics.median(ratio_values):.2f}" if ratio_values else "–"
        print(f"| {config['driver']} | {config['mode']} | {config['transport']} "
              f"| {config['placement']} | {hold} | {len(members)} "
              f"| {statistics.median(medians):.2f} | {min(medians):.2f}–{max(medians):.2f} "
              f"| {statistics.median(p99s):.2f} | {ratio} |")


if __name__ == "__main__":
    main()
