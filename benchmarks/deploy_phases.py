"""The figures of docs/performance.md's deployment section, from a stored run of
suites/deploy.yaml: per configuration (assembly mode and plan), each phase's
median over the launches of each launch's median (a launch is a new set of
processes, which on this machine can settle at another level), with the
dynamic/static ratio of `total`, taken launch by launch with its 95% interval
(paired.py), what share of `total` each phase takes, and, for the scale
plans, the cost per component.

    .venv/bin/python benchmarks/deploy_phases.py results/deploy.db [--run N]
"""

import re
from collections import defaultdict
from statistics import median

import numpy as np
from paired import open_run, ratio, study_arguments, text

from mwbench.store import Store

# The phases shown, in the order of the tables; others stay in the report.
PHASES = ("total", "plan_parsing", "plan_check", "plan_loading", "orb_initialization",
          "server_creation", "container_creation", "home_creation", "library_load",
          "component_creation", "configuration", "registration", "connection", "activation",
          "teardown")


def configuration(cell) -> tuple[str, str, str]:
    return cell["experiment"], cell["assembly"], (cell["options"] or {}).get("plan", "")


def medians_of_medians(store: Store, run_id: int, key_of=configuration) -> dict[tuple, dict]:
    """key_of(cell) (default: experiment, assembly, plan) -> {phase: median of the
    launches' medians, in µs}."""
    per_launch: dict[tuple, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for cell in store.cells(run_id):
        if cell["status"] != "ok" or cell["operation"] != "assembly":
            continue
        key = key_of(cell)
        for name, values in store.named_series(cell["id"]).items():
            per_launch[key][name].append(float(median(values)) / 1e3)
    return {key: {name: median(values) for name, values in phases.items()}
            for key, phases in per_launch.items()}


def phase_table(figures: dict[tuple, dict], experiment: str) -> list[str]:
    rows = [(key, phases) for key, phases in figures.items() if key[0] == experiment]
    if not rows:
        return []
    header = "| phase (µs) | " + " | ".join(f"{a} {p}" for (_, a, p), _ in rows) + " |"
    lines = [header, "| --- |" + " ---: |" * len(rows)]
    for phase in PHASES:
        if all(phase not in phases for _, phases in rows):
            continue
        cells = [f"{phases[phase]:,.0f}" if phase in phases else "" for _, phases in rows]
        lines.append(f"| {phase} | " + " | ".join(cells) + " |")
    return lines


def totals_by_launch(store: Store, run_id: int) -> dict[tuple, dict[int, np.ndarray]]:
    """(experiment, assembly, plan) -> {launch: its samples of `total`, µs}."""
    found: dict[tuple, dict[int, np.ndarray]] = defaultdict(dict)
    for cell in store.cells(run_id):
        if cell["status"] == "ok" and cell["operation"] == "assembly":
            series = store.named_series(cell["id"])
            if "total" in series:
                found[configuration(cell)][cell["launch"]] = series["total"] / 1e3
    return dict(found)


def ratios(figures: dict[tuple, dict], totals: dict[tuple, dict]) -> list[str]:
    """dynamic/static of `total` per plan, launch by launch with its interval."""
    lines = []
    for (experiment, assembly, plan), phases in sorted(figures.items()):
        if assembly != "dynamic" or (experiment, "static", plan) not in figures:
            continue
        static = figures[(experiment, "static", plan)]["total"]
        times = ratio(totals.get((experiment, assembly, plan), {}),
                      totals.get((experiment, "static", plan), {}), key=(experiment, plan))
        share = {p: phases[p] / phases["total"] for p in PHASES[1:] if p in phases}
        largest = max(share, key=share.get)
        lines.append(f"- {experiment} {plan}: static {static:,.0f} µs, dynamic "
                     f"{phases['total']:,.0f} µs, dynamic/static {text(times, 1)}; "
                     f"largest dynamic phase {largest} ({share[largest]:.0%}); plan parsing "
                     f"{share.get('plan_parsing', 0):.1%} of dynamic total")
    return lines


def per_component(figures: dict[tuple, dict]) -> list[str]:
    lines = []
    for (_, assembly, plan), phases in sorted(figures.items()):
        size = re.fullmatch(r"scale_(\d+)", plan)
        if not size:
            continue
        n = int(size.group(1))
        cost = ", ".join(f"{p} {phases[p] / n:,.1f}" for p in
                         ("component_creation", "connection", "activation", "total")
                         if p in phases)
        lines.append(f"- {assembly} {plan}: per component (µs): {cost}; teardown "
                     f"{phases.get('teardown', 0) / 1e3:,.1f} ms")
    return lines


def main() -> None:
    parser = study_arguments(__doc__)
    args = parser.parse_args()
    store, run_id = open_run(args)
    figures = medians_of_medians(store, run_id)
    for experiment in dict.fromkeys(key[0] for key in figures):
        print(f"\n### {experiment}\n")
        print("\n".join(phase_table(figures, experiment)))
    print("\n### static against dynamic\n")
    print("\n".join(ratios(figures, totals_by_launch(store, run_id))))
    print("\n### per component\n")
    print("\n".join(per_component(figures)))


if __name__ == "__main__":
    main()
