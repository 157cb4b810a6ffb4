"""Round trips of a run against the raw-socket baseline, as a Markdown table.

For each configuration (every factor but the launch): its launches, the
median over launches of each launch's p50 and p99 with the 95% interval of
the hierarchical bootstrap, and the ratio to the rawtcp configuration of the
same transport family and placement, taken launch by launch, with its
interval; a ratio whose interval holds 1 is marked indistinguishable from the
raw socket. The figures are those of `mwbench export --format
configurations`. Prints a table for docs/performance.md.

    .venv/bin/python benchmarks/baseline_table.py --db results/mwbench.db [--run ID]
"""

import argparse

from mwbench.export.configurations import configuration_records
from mwbench.store import Store


def interval(record: dict, name: str, digits: int = 2) -> str:
    value, low, high = record[name], record[f"{name}_low"], record[f"{name}_high"]
    if value is None:
        return "–"
    if low is None:
        return f"{value:.{digits}f} (1 launch)"
    return f"{value:.{digits}f} [{low:.{digits}f}–{high:.{digits}f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="results/mwbench.db")
    parser.add_argument("--run", type=int, default=None, help="run id (default: the latest)")
    args = parser.parse_args()
    store = Store.open_existing(args.db)
    run_id = args.run or store.latest_run_id()
    records = [r for r in configuration_records(store, [run_id]) if r["launches"]]
    print(f"Run {run_id}: median over launches (µs per call) [95% interval]\n")
    print("| driver | mode | transport | bytes | placement | launches | p50 | p99 | ×raw (p50) |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    for r in records:
        ratio = interval(r, "raw_ratio_p50")
        if r["indistinguishable_from_raw"]:
            ratio += " ≈ raw"
        print(f"| {r['driver']} | {r['mode']} | {r['transport']} | {r['payload_bytes']} "
              f"| {r['placement']}{'' if r['idle_hold'] else ' no hold'} | {r['launches']} "
              f"| {interval(r, 'p50_us')} | {interval(r, 'p99_us')} | {ratio} |")


if __name__ == "__main__":
    main()
