"""Do two runs of one spec tell the same story? The order of middlewares by their ratio to
the raw socket, and whether each ratio's interval in one run overlaps the other's.

For two stored runs of the same spec (by default the last two of the
database), per remote configuration that has a raw-socket baseline: its
ratio to the raw socket (p50, launch by launch, with its 95% interval: the
figures of `mwbench export --format configurations`) in each run. Prints
Kendall's tau between the two orders (goal: >= 0.9), and every configuration
whose intervals do not overlap (goal: none).

    .venv/bin/python benchmarks/agreement.py --db results/mwbench.db [--runs 7 8]
"""

import argparse

from scipy.stats import kendalltau

from mwbench.comparison.runs import MATCH_FACTORS
from mwbench.export.configurations import configuration_records
from mwbench.store import Store


def ratios(store: Store, run_id: int) -> dict[tuple, dict]:
    return {tuple(str(r[name]) for name in MATCH_FACTORS): r
            for r in configuration_records(store, [run_id]) if r["raw_ratio_p50"] is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="results/mwbench.db")
    parser.add_argument("--runs", type=int, nargs=2, help="two run ids (default: the last two)")
    args = parser.parse_args()
    store = Store.open_existing(args.db)
    first, second = args.runs or [run["id"] for run in store.runs()][-2:]
    a, b = ratios(store, first), ratios(store, second)
    store.close()
    shared = [key for key in a if key in b]
    tau = kendalltau([a[k]["raw_ratio_p50"] for k in shared],
                     [b[k]["raw_ratio_p50"] for k in shared]).statistic
    print(f"runs {first} and {second}: {len(shared)} configurations with a raw-socket ratio")
    print(f"Kendall's tau between their orders by ratio to the raw socket: {tau:.3f}")
    apart = []
    for key in shared:
        x, y = a[key], b[key]
        if x["raw_ratio_p50_low"] is None or y["raw_ratio_p50_low"] is None:
            continue
        if x["raw_ratio_p50_high"] < y["raw_ratio_p50_low"] or \
                y["raw_ratio_p50_high"] < x["raw_ratio_p50_low"]:
            apart.append((key, x, y))
    print(f"intervals that do not overlap: {len(apart)} of {len(shared)}")
    for _, x, y in apart:
        print(f"  {x['experiment']} {x['driver']} {x['transport']} {x['payload_bytes']} B: "
              f"{x['raw_ratio_p50']:.3f} [{x['raw_ratio_p50_low']:.3f}–"
              f"{x['raw_ratio_p50_high']:.3f}] against {y['raw_ratio_p50']:.3f} "
              f"[{y['raw_ratio_p50_low']:.3f}–{y['raw_ratio_p50_high']:.3f}]")


if __name__ == "__main__":
    main()
