"""Dispatcher: how the time of a call grows with the servants in the object map.

A POA with RETAIN keeps a map of its servants and searches it on every call.
A good map (a hash table) finds any servant in constant time, so the time
per call stays flat as servants are added. The Open CORBA Benchmarking
suite reads two bad shapes off a box-and-whisker plot with whiskers at the
minimum and maximum:

- the median grows with the count while the minimum does not: the typical
  lookup gets slower, as a sequential search or a degrading table does;
- only the maximum grows while the minimum does not: most lookups are
  quick and a few are slow, as an imperfect hash does (collisions, rehash).

If the minimum grows too, every call got slower (a longer object key, a map
larger than the caches), which is a cost of the count but not of a poor map.
A maximum is a single call, so a preemption can move it, and on a shared
virtual machine a median drifts by up to a third between runs of the same
cell (docs/performance.md): a shape is only claimed when the growth from the
smallest count to the largest is steep (×1.5 for the median, ×2 for the
maximum) *and* follows the count (rank correlation), and the numbers are
always given, so that a reader can judge a smaller growth.
"""

import numpy as np

from ..data import Configuration, Run
from ..figures import plt, to_svg

MEDIAN_GROWTH = 1.5  # ×, smallest to largest count: steep, beyond this machine's drift
MAX_GROWTH = 2.0
STEADY = 1.25  # the minimum "does not grow" below this
TREND = 0.7  # Spearman rank correlation of the statistic with the count


def series(run: Run) -> list[dict]:
    found = []
    for experiment in run.sweeping("servants"):
        for name, members in experiment.series("servants"):
            counts = [c.factors["servants"] for c in members]
            stats = {q: np.array([_stat(c, q) for c in members])
                     for q in ("min", "p25", "p50", "p75", "p99", "max")}
            options = members[0].factors["options"] or {}
            found.append({"experiment": experiment.name, "series": name, "counts": counts,
                          "stats": stats, "target": options.get("target"),
                          "members": members})
    for item in found:
        item["verdict"], item["reading"] = interpret(item["counts"], item["stats"])
    for item in found:
        item["reading"] += _against_same(item, found)
    return found


def _stat(c: Configuration, q: str) -> float:
    if q == "min":
        return float(c.per_call_us.min())
    if q == "max":
        return float(c.per_call_us.max())
    return c.percentile(float(q[1:]))


def interpret(counts: list[int], stats: dict[str, np.ndarray]) -> tuple[str, str]:
    """(verdict, sentence with the numbers) for one line of servant counts."""
    growth = {q: float(v[-1] / v[0]) if v[0] > 0 else float("inf") for q, v in stats.items()}
    trend = {q: _spearman(np.array(counts, dtype=float), v) for q, v in stats.items()}

    def grows(q: str, factor: float) -> bool:
        return growth[q] >= factor and trend[q] >= TREND

    def change(q: str, name: str) -> str:
        v = stats[q]
        return f"{name} {v[0]:.2f} → {v[-1]:.2f} µs (×{growth[q]:.2f})"

    numbers = (f"From {counts[0]:,} to {counts[-1]:,} servants: {change('p50', 'median')}, "
               f"{change('min', 'minimum')}, {change('max', 'maximum')}, "
               f"{change('p99', 'p99')}.")
    steady_min = not grows("min", STEADY)
    if grows("p50", MEDIAN_GROWTH) and steady_min:
        return ("median grows", f"{numbers} The median grows with the count while the minimum "
                "does not: the typical lookup gets slower as servants are added, the sign of "
                "a poor object map (a sequential search or a degrading table).")
    if grows("p50", MEDIAN_GROWTH):
        return ("every call grows", f"{numbers} The median and the minimum grow together: "
                "every call gets slower with the count (longer object keys, a map larger "
                "than the caches), a cost of the count rather than of a poor map.")
    if grows("max", MAX_GROWTH) and steady_min:
        return ("maximum grows", f"{numbers} Only the maximum grows with the count while the "
                "minimum does not: most lookups stay quick and a few get slow, the sign of "
                "an imperfect hash (collisions or rehashing) in the object map.")
    return ("flat", f"{numbers} Neither shape of a poor object map: the median stays below "
            f"×{MEDIAN_GROWTH} and the maximum does not grow steadily with the count, as a "
            "hash table's constant-time lookup would have it (a smaller growth can be the "
            "caches, which a larger map fills, or the drift between cells).")


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3:
        return 1.0  # two points: the growth ratio alone decides
    rx, ry = (np.argsort(np.argsort(a)).astype(float) for a in (x, y))
    if rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def _against_same(item: dict, found: list[dict]) -> str:
    """A random-target line read against its same-target twin, when the run has both."""
    if item["target"] != "random":
        return ""
    twin = next((o for o in found if o["target"] == "same" and o["experiment"] ==
                 item["experiment"] and o["counts"] == item["counts"]), None)
    if twin is None:
        return ""
    mine = item["stats"]["p50"][-1] / item["stats"]["p50"][0]
    theirs = twin["stats"]["p50"][-1] / twin["stats"]["p50"][0]
    return (f" Calling the same servant every time, the median goes ×{theirs:.2f} against "
            f"×{mine:.2f} here: " + (
                "the growth comes from reaching different servants (the map's lookup or the "
                "caches), not from the number registered." if mine > theirs * 1.1 else
                "reaching different servants costs no more than reaching one."))


def figure(item: dict) -> str:
    """Box per count: p25–p75, median, whiskers at the minimum and the maximum."""
    shown, axes = plt.subplots(figsize=(10, 3.6))
    s = item["stats"]
    boxes = [{"label": f"{count:,}", "med": s["p50"][i], "q1": s["p25"][i], "q3": s["p75"][i],
              "whislo": s["min"][i], "whishi": s["max"][i], "fliers": []}
             for i, count in enumerate(item["counts"])]
    axes.bxp(boxes, showfliers=False, widths=0.5, patch_artist=True,
             boxprops={"facecolor": "#cfe0f3"}, medianprops={"color": "#c0392b", "linewidth": 2})
    axes.plot(range(1, len(boxes) + 1), s["p99"], marker="_", markersize=14, linestyle="none",
              color="#555", label="p99")
    axes.set_yscale("log")
    axes.set_xlabel("servants registered")
    axes.set_ylabel("µs per call (log)")
    axes.legend(fontsize=8, loc="upper left")
    return to_svg(shown)
