"""Background load: the round trip while N CPU-burning processes run beside it.

The Open CORBA Benchmarking suite found that a steady processor load
lengthens calls in inverse proportion to the share of the CPU the benchmark
still gets. Each line here is one configuration measured without and with
load; the ratio to the unloaded median, taken launch by launch with its
interval (launches/estimate.py), says how much of a call's time went to
waiting for a CPU. The load generator's exact command and version are
shown, since another tool or version is another load.
"""

import numpy as np

from ...launches.estimate import Estimate, paired_ratio
from ..data import Configuration, Run
from ..figures import plt, to_svg


def series(run: Run) -> list[dict]:
    found = []
    for experiment in run.experiments:
        for name, members in experiment.series("background"):
            base = next((c for c in members if c.factors["background"] == "none"), None)
            rows = []
            for c in members:
                p50, p99 = c.percentile(50), c.percentile(99)
                rows.append({
                    "background": c.factors["background"], "p50": p50, "p99": p99,
                    "p25": c.percentile(25), "p75": c.percentile(75),
                    "r50": _ratio(c, base, 50), "r99": _ratio(c, base, 99),
                    "command": _generator(c.cells).get("command", ""),
                })
            found.append({"experiment": experiment.name, "series": name, "rows": rows})
    return found


def _ratio(c: Configuration, base: Configuration | None, q: float) -> Estimate | None:
    """c's q-th percentile over the unloaded one's, launch by launch; None for the unloaded
    configuration itself (or none measured)."""
    if base is None or c is base:
        return None
    return paired_ratio(c.launches, base.launches, q, key=(c.key, "background"))


def versions(run: Run) -> list[str]:
    """Every version of the load generator the run used (one, normally)."""
    return sorted({cell["load_generator"].get("version") or "version unknown"
                   for cell in run.cells if cell.get("load_generator")})


def _generator(cells: list[dict]) -> dict:
    """The load generator's command line, as it ran, from the first cell with one."""
    for cell in cells:
        if generator := cell.get("load_generator"):
            return {"command": " ".join(generator["argv"])}
    return {}


def figure(found: list[dict]) -> str:
    shown, axes = plt.subplots(figsize=(10, 3.6))
    width = 0.8 / max(len(found), 1)
    levels = list(dict.fromkeys(r["background"] for item in found for r in item["rows"]))
    for index, item in enumerate(found):
        x = np.array([levels.index(r["background"]) for r in item["rows"]]) + index * width
        median = np.array([r["p50"] for r in item["rows"]])
        band = np.array([[r["p50"] - r["p25"] for r in item["rows"]],
                         [r["p75"] - r["p50"] for r in item["rows"]]])
        bars = axes.bar(x, median, width=width * 0.9, yerr=band, capsize=2,
                        label=f"{item['experiment']}: {item['series']}")
        axes.plot(x, [r["p99"] for r in item["rows"]], marker="_", markersize=12,
                  linestyle="none", color=bars.patches[0].get_facecolor())
    axes.set_xticks(np.arange(len(levels)) + width * (len(found) - 1) / 2, levels)
    lows = [r["p25"] for item in found for r in item["rows"]]
    highs = [r["p99"] for item in found for r in item["rows"]]
    if min(lows) > 0 and max(highs) / min(lows) > 20:
        axes.set_yscale("log")  # a slow p99 would flatten every median
    axes.set_xlabel("background load (stress-ng CPU workers)")
    axes.set_ylabel("µs per call (bar: median, p25–p75; dash: p99)")
    axes.set_ylim(bottom=min(lows) * 0.8 if axes.get_yscale() == "log" else 0)
    axes.legend(fontsize=7, loc="upper left")
    return to_svg(shown)
