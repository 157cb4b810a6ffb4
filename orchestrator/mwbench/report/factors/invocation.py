"""Invocation modes: the round trip and the delivery time of each, as OCB's Figure 1.

The Open CORBA Benchmarking suite follows a call through each mechanism of
the client (static stubs, the dynamic invocation interface, the
asynchronous calls of CORBA Messaging, oneway calls) and of the server
(static skeletons, the dynamic skeleton interface), and gives two
distributions for each: the round trip, and the delivery, from the
client's send to the servant's entry. A cell run with the option
`delivery_time=1` times the delivery as its named series `delivery`, on one host
from one monotonic clock. A oneway call has no reply: its samples are its
deliveries (timed by the driver) and it has no round trip.

Per configuration of an experiment that sets `invocation` (every factor but
the mode equal: the operation, its payload, the dispatch) a panel, with a
box per mode and time, round trip and delivery side by side. The table
gives each mode's medians over those of the static invocation of a static
skeleton in the same configuration, launch by launch, with the interval
(launches/estimate.py): the paper found the dynamic mechanisms "slightly
slower", and the ratio says by how much.
"""

import math

import numpy as np
from matplotlib.patches import Patch

from ...launches.bootstrap import launch_figure
from ...launches.estimate import configuration_key, paired_ratio, percentile
from ..data import Configuration, Run, label
from ..figures import WHISKERS, plt, to_svg, wide

INVOCATION, DISPATCH, DELIVERY = "invocation", "dispatch", "delivery"
STATIC, ONEWAY = "static", "oneway"
# The paper's order: static first, then the dynamic and asynchronous mechanisms.
MODES = (STATIC, "dii", "ami_callback", "ami_poller", ONEWAY)
TIMES = (("round_trip", "round trip", "#cfe0f3"), ("delivery", "delivery", "#f5d5a8"))


def series(run: Run) -> list[dict]:
    """A panel per configuration (all factors but the invocation mode) of every experiment
    that sets `invocation`, each with its modes in the paper's order."""
    found = []
    for experiment in run.experiments:
        measured = [c for c in experiment.configurations
                    if c.ok and c.factors.get(INVOCATION) is not None]
        others = [name for name in experiment.varying() if name != INVOCATION]
        panels: dict[str, list[Configuration]] = {}
        for c in measured:
            panels.setdefault(_key_without(c.factors, (INVOCATION,)), []).append(c)
        for members in panels.values():
            members.sort(key=lambda c: _mode_order(c.factors[INVOCATION]))
            found.append({
                "experiment": experiment.name,
                "configuration": label(members[0].factors, others) if others else "all",
                "modes": [_mode(c, _reference(c, measured)) for c in members]})
    return found


def _key_without(factors: dict, names: tuple[str, ...]) -> str:
    return configuration_key({k: v for k, v in factors.items() if k not in names})


def _mode_order(mode: str) -> tuple[int, str]:
    return (MODES.index(mode) if mode in MODES else len(MODES), mode)


def _dispatch(c: Configuration) -> str:
    return c.factors.get(DISPATCH) or STATIC  # unset: the driver's default, a static skeleton


def _reference(c: Configuration, measured: list[Configuration]) -> Configuration | None:
    """The static invocation of a static skeleton with c's other factors."""
    key = _key_without(c.factors, (INVOCATION, DISPATCH))
    return next((r for r in measured if r.factors[INVOCATION] == STATIC
                 and _dispatch(r) == STATIC
                 and _key_without(r.factors, (INVOCATION, DISPATCH)) == key), None)


def _times(c: Configuration) -> dict[str, dict[int, np.ndarray]]:
    """Launch -> µs of each time the mode has: a oneway call's samples are deliveries."""
    if c.factors[INVOCATION] == ONEWAY:
        return {"round_trip": {}, "delivery": c.launches}
    return {"round_trip": c.launches, "delivery": c.series_launches(DELIVERY)}


def _mode(c: Configuration, reference: Configuration | None) -> dict:
    times = _times(c)
    base = _times(reference) if reference is not None and reference is not c else None
    view = {"invocation": c.factors[INVOCATION], "dispatch": _dispatch(c),
            "launches": len(c.launches)}
    for name, _, _ in TIMES:
        launches = times[name]
        view[name] = _figures(launches, (c.key, name)) if launches else None
        view[f"{name}_ratio"] = (paired_ratio(launches, base[name], 50, key=(c.key, name))
                                 if base and launches and base[name] else None)
    return view


def _figures(launches: dict[int, np.ndarray], key: object) -> dict:
    values = list(launches.values())
    return {"pooled": np.concatenate(values), "p50": percentile(values, 50, key=key),
            "p99": launch_figure(values, 99)}


def figure(found: list[dict]) -> str:
    """Small multiples: a panel per configuration, a pair of boxes per mode (p25-p75, the
    median, whiskers at p1 and p99), one scale for all panels."""
    columns = 1 if len(found) == 1 else 2
    rows = math.ceil(len(found) / columns)
    tallest = max(len(panel["modes"]) for panel in found)
    shown, grid = plt.subplots(rows, columns, figsize=(10, (0.9 + 0.55 * tallest) * rows),
                               sharex=True, squeeze=False, layout="constrained")
    extremes = []
    for axes, panel in zip(grid.flat, found, strict=False):
        extremes += _panel(axes, panel)
    for axes in list(grid.flat)[len(found):]:
        axes.set_visible(False)
    if wide(extremes):
        grid[0][0].set_xscale("log")
    shown.supxlabel("µs (box: p25–p75, line: median, whiskers: p1 and p99), launches pooled",
                    fontsize=9)
    shown.legend(handles=[Patch(facecolor=colour, edgecolor="black", label=text)
                          for _, text, colour in TIMES],
                 loc="outside upper right", ncol=2, fontsize=7, frameon=False)
    return to_svg(shown)


def _panel(axes, panel: dict) -> list[float]:
    """The boxes of one configuration; returns their whiskers' ends (for the scale)."""
    extremes = []
    positions = np.arange(len(panel["modes"]))[::-1]
    for offset, (name, _, colour) in zip((0.18, -0.18), TIMES, strict=True):
        stats, at = [], []
        for position, mode in zip(positions, panel["modes"], strict=True):
            if mode[name] is None:
                continue
            p1, q1, median, q3, p99 = np.percentile(mode[name]["pooled"],
                                                    [WHISKERS[0], 25, 50, 75, WHISKERS[1]])
            stats.append({"med": median, "q1": q1, "q3": q3, "whislo": p1, "whishi": p99,
                          "fliers": []})
            at.append(position + offset)
            extremes += [p1, p99]
        if stats:
            axes.bxp(stats, positions=at, orientation="horizontal", showfliers=False,
                     widths=0.32, patch_artist=True, boxprops={"facecolor": colour},
                     medianprops={"color": "#c0392b", "linewidth": 2})
    axes.set_yticks(positions, [mode["invocation"].replace("_", " ") for mode in panel["modes"]])
    axes.set_title(f"{panel['experiment']}: {panel['configuration']}", fontsize=9, loc="left")
    return extremes
