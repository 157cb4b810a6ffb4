"""The figures of docs/performance.md's section on cells across hosts, from a stored run
of suites/hosts.yaml: per configuration, the median over launches of each launch's
median (a launch is a new set of processes, which on this machine can settle at another
level), on one host and across hosts, with each driver's ratio to the raw socket over
the same hosts (rawtcp, the baseline of the same run) and across hosts against one,
both taken launch by launch with their 95% intervals (paired.py), and the hosts'
disclosure as the run stored it; for a run of suites/hosts-nodes.yaml, the steps of an
assembly by where the plan's nodes ran (deploy_phases.py's medians of medians).

    .venv/bin/python benchmarks/hosts_study.py results/hosts.db [--run N]
"""

import json
from collections import defaultdict
from statistics import median

from deploy_phases import PHASES, medians_of_medians
from paired import launches_by, open_run, ratio, study_arguments, text

from mwbench.hosts.disclosure import differences
from mwbench.store import Store

BASELINE = "rawtcp"


def key_of(cell: dict) -> tuple:
    """(experiment, operation, payload, hosts, driver)"""
    return (cell["experiment"], cell["operation"], cell["payload_bytes"],
            cell["hosts"] or "local", cell["driver"])


def configurations(store: Store, run_id: int) -> dict[tuple, float]:
    """key_of(cell) -> median of the launches' medians, µs."""
    per_launch = defaultdict(list)
    for cell in store.cells(run_id):
        if cell["status"] == "ok":
            per_launch[key_of(cell)].append(cell["p50_us"])
    return {key: median(values) for key, values in per_launch.items()}


def table(figures: dict, launches: dict) -> list[str]:
    lines = ["| experiment | payload B | hosts | driver | median µs | ×raw |",
             "| --- | ---: | --- | --- | ---: | ---: |"]
    for key in sorted(figures, key=lambda k: (k[0], k[2], k[3], k[4] != BASELINE, k[4])):
        experiment, operation, payload, hosts, driver = key
        raw = launches.get((experiment, operation, payload, hosts, BASELINE))
        against = text(ratio(launches[key], raw, key=key)) if raw and driver != BASELINE \
            else "-"
        lines.append(f"| {experiment} | {payload} | {hosts} | {driver} | "
                     f"{figures[key]:,.2f} | {against} |")
    return lines


def crossing(figures: dict, launches: dict) -> list[str]:
    """What crossing hosts adds: across / one host, per driver and experiment, launch by
    launch (the two ran in the same blocks of the run) with its interval."""
    lines = ["| experiment | payload B | driver | one host µs | across µs | across / one |",
             "| --- | ---: | --- | ---: | ---: | ---: |"]
    for (experiment, operation, payload, hosts, driver), across in sorted(figures.items()):
        if "=" not in hosts:
            continue
        one = next(((k, value) for k, value in figures.items()
                    if (k[0], k[1], k[2], k[4]) == (experiment, operation, payload, driver)
                    and "=" not in k[3]), None)
        if one is not None:
            key = (experiment, operation, payload, hosts, driver)
            lines.append(f"| {experiment} | {payload} | {driver} | {one[1]:,.2f} | "
                         f"{across:,.2f} | {text(ratio(launches[key], launches[one[0]], key))} |")
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
    parser = study_arguments(__doc__)
    args = parser.parse_args()
    store, run_id = open_run(args)
    run = store.run(run_id)
    hosts = json.loads(run["hosts"] or "{}")
    figures = configurations(store, run_id)
    launches = launches_by(store, run_id, key_of)
    print(f"run {run_id}: {len(store.cells(run_id))} cells; hosts: "
          + ", ".join(f"{name} ({entry['reach']}, {entry['bind']})"
                      for name, entry in hosts.items()))
    for line in differences(hosts) or ["the hosts do not differ"]:
        print(line)
    print("\n".join(["", *table(figures, launches), "", *crossing(figures, launches), "",
                     *assembly_steps(store, run_id)]))


if __name__ == "__main__":
    main()
