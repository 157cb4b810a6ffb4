"""The figures of docs/performance.md's section on cells across hosts, from a stored run
of suites/hosts.yaml: per configuration, the median over repetitions of each
repetition's median (a repetition is a new set of processes, which on this machine can
settle at another level), on one host and across hosts, with each driver's ratio to the
raw socket over the same hosts (rawtcp, the baseline of the same run), and the hosts'
disclosure as the run stored it; for a run of suites/hosts-nodes.yaml, the steps of an
assembly by where the plan's nodes ran (deploy_phases.py's medians of medians).

    .venv/bin/python benchmarks/hosts_study.py results/hosts.db [--run N]
"""

import argparse
import json
from collections import defaultdict
from statistics import median

from deploy_phases import PHASES, medians_of_medians

from mwbench.hosts.disclosure import differences
from mwbench.store import Store

BASELINE = "rawtcp"


def configurations(store: Store, run_id: int) -> dict[tuple, float]:
    """(experiment, operation, payload, hosts, driver) -> median of the repetitions'
    medians, µs."""
    per_repetition = defaultdict(list)
    for cell in store.cells(run_id):
        if cell["status"] == "ok":
            key = (cell["experiment"], cell["operation"], cell["payload_bytes"],
                   cell["hosts"] or "local", cell["driver"])
            per_repetition[key].append(cell["p50_us"])
    return {key: median(values) for key, values in per_repetition.items()}


def table(figures: dict) -> list[str]:
    lines = ["| experiment | payload B | hosts | driver | median µs | ×raw |",
             "| --- | ---: | --- | --- | ---: | ---: |"]
    for key in sorted(figures, key=lambda k: (k[0], k[2], k[3], k[4] != BASELINE, k[4])):
        experiment, operation, payload, hosts, driver = key
        raw = figures.get((experiment, operation, payload, hosts, BASELINE))
        ratio = f"{figures[key] / raw:.2f}" if raw else "-"
        lines.append(f"| {experiment} | {payload} | {hosts} | {driver} | "
                     f"{figures[key]:,.2f} | {ratio} |")
    return lines


def crossing(figures: dict) -> list[str]:
    """What crossing hosts adds: across / one host, per driver and experiment."""
    lines = ["| experiment | payload B | driver | one host µs | across µs | across / one |",
             "| --- | ---: | --- | ---: | ---: | ---: |"]
    for (experiment, operation, payload, hosts, driver), across in sorted(figures.items()):
        if "=" not in hosts:
            continue
        one = next((value for (e, o, p, h, d), value in figures.items()
                    if (e, o, p, d) == (experiment, operation, payload, driver)
                    and "=" not in h), None)
        if one is not None:
            lines.append(f"| {experiment} | {payload} | {driver} | {one:,.2f} | "
                         f"{across:,.2f} | {across / one:.2f} |")
    return lines


def assembly_steps(store: Store, run_id: int) -> list[str]:
    """Each step of an assembly (median of medians, µs), a column per level of hosts."""
    figures = medians_of_medians(store, run_id, lambda cell: cell["hosts"] or "local")
    if not figures:
        return []
    levels = list(figures)
    lines = ["| step (µs) | " + " | ".join(levels) + " |", "| --- |" + " ---: |" * len(levels)]
    for step in PHASES:
        if any(step in figures[level] for level in levels):
            lines.append(f"| {step} | " + " | ".join(
                f"{figures[level][step]:,.0f}" if step in figures[level] else ""
                for level in levels) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--run", type=int, help="the run (default: the latest)")
    args = parser.parse_args()
    store = Store.open_existing(args.db)
    run_id = args.run or store.latest_run_id()
    run = store.run(run_id)
    hosts = json.loads(run["hosts"] or "{}")
    figures = configurations(store, run_id)
    print(f"run {run_id}: {len(store.cells(run_id))} cells; hosts: "
          + ", ".join(f"{name} ({entry['reach']}, {entry['bind']})"
                      for name, entry in hosts.items()))
    for line in differences(hosts) or ["the hosts do not differ"]:
        print(line)
    print("\n".join(["", *table(figures), "", *crossing(figures), "",
                     *assembly_steps(store, run_id)]))


if __name__ == "__main__":
    main()
