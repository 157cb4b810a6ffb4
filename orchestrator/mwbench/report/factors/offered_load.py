"""Latency against offered load: the rate at which a middleware's tail leaves the budget.

A cell of an open loop (`load: constant:RATE` or `poisson:RATE`) sends on
a schedule of intended start times and never waits for a reply first; its
sample is the response time from the intended start, so a stall costs
every call that falls in it, not one (coordinated omission, avoided). Per
configuration (every factor but the rate equal; a constant and a Poisson
schedule are two lines), p50, p99 and p99.9 against the offered rate, in
a panel per driver, on a log scale: a tail grows by orders of magnitude
past the knee.

The knee of a line: the highest offered rate before the p99 (or the
percentile of the experiment's bound, where it gives one: on a machine that
stalls, its p99 is the machine's at every rate) rises above twice its value
at the lowest rate, or before the achieved rate falls below 95% of the
offered one; the figure and the table say which rule ended it.
The maximum sustainable rate of a line is the highest rate before the
response time at the bound's percentile leaves the bound the experiment
gives (`bound_us` at `bound_percentile`, p99 unless it says otherwise:
response_bound.py) or the achieved rate falls below 95% of the offered one,
as `mwbench saturate` searches it; without a bound, the knee. Rates are the
spec's (the rate asked for); the rates each cell met are in the experiment's
table of what was measured.
"""

import json
import math

import numpy as np
from matplotlib.lines import Line2D

from ...launches.estimate import configuration_key
from ...open_load import SUSTAINED
from ...response_bound import STAT_KEYS, Bound
from ...spec import SpecError, parse_spec
from ..data import Configuration, Experiment, Run, label
from ..figures import LINE_STYLES, plt, to_svg, wide
from ..open_loop import rates, schedule

LOAD = "load"
# A line needs two rates: one open-loop rate beside a closed loop (the demonstration of
# coordinated omission) is read in its experiment's own figures, not as a sweep.
MIN_RATES = 2
KNEE_GROWTH = 2.0  # the knee's percentile at most twice its value at the lowest rate
KNEE_PERCENTILE = "p99"  # unless the experiment's bound is at another
PERCENTILES = (("p50", 50, "solid"), ("p99", 99, (0, (5, 2))), ("p999", 99.9, (0, (1, 1.5))))
# A bound at a percentile the figure does not draw (p90) draws that percentile too.
BOUND_ONLY_DASH = (0, (4, 1.5, 1, 1.5))
# Every figure a point holds: each percentile a bound may be judged at, by its key.
FIGURES = {key.removesuffix("_us"): q for q, key in STAT_KEYS.items()}


def series(run: Run) -> list[dict]:
    """A line per configuration of each experiment with open-loop cells at two rates or
    more: its points in order of rate, its knee and its maximum sustainable rate."""
    bounds = _bounds(run)
    found = []
    for experiment in run.experiments:
        lines: dict[tuple, list[Configuration]] = {}
        for c in experiment.configurations:
            if c.ok and (load := schedule(c.factors.get(LOAD))) is not None:
                others = tuple(str(v) for k, v in c.factors.items() if k != LOAD)
                lines.setdefault((load.kind, *others), []).append(c)
        for members in (m for m in lines.values() if len(m) >= MIN_RATES):
            members.sort(key=lambda c: schedule(c.factors[LOAD]).rate_per_s)
            found.append(_line(experiment, members, bounds.get(experiment.name)))
    return found


def _line(experiment: Experiment, members: list[Configuration], bound: Bound | None) -> dict:
    others = [name for name in experiment.varying() if name != LOAD]
    kind = schedule(members[0].factors[LOAD]).kind
    name = label(members[0].factors, others) if others else ""
    points = [_point(c) for c in members]
    at = bound.key if bound is not None else KNEE_PERCENTILE
    knee, knee_rule = _last_held(points, lambda p: p[at] > KNEE_GROWTH * points[0][at], at)
    held, held_rule = (_last_held(points, lambda p: p[bound.key] > bound.us, bound.key)
                       if bound is not None else (knee, knee_rule))
    return {"experiment": experiment.name, "driver": members[0].factors["driver"],
            "configuration": configuration_key(
                {**{k: v for k, v in members[0].factors.items() if k != LOAD},
                 "experiment": experiment.name}),
            "series": f"{name} {kind}".strip(), "points": points, "knee": knee,
            "knee_rule": knee_rule, "knee_at": at, "bound": bound, "sustainable": held,
            "sustainable_rule": held_rule}


def _point(c: Configuration) -> dict:
    measured = rates(c.cells)
    point = {"rate": schedule(c.factors[LOAD]).rate_per_s, **measured}
    point.update({key: c.percentile(q) for key, q in FIGURES.items()})
    return point


def _last_held(points: list[dict], too_slow, slow: str = "p99") -> tuple[int | None, str]:
    """The index of the highest rate before the first that fails (None: the lowest fails
    already), and what failed: `slow` (the percentile too_slow judges), "achieved", or ""
    when every rate held."""
    for index, point in enumerate(points):
        offered = point["offered"] or point["rate"]
        if point["achieved"] is not None and point["achieved"] < SUSTAINED * offered:
            return (index - 1 if index else None), "achieved"
        if too_slow(point):
            return (index - 1 if index else None), slow
    return len(points) - 1, ""


def _bounds(run: Run) -> dict[str, Bound]:
    """Each experiment's bound: the one `mwbench saturate` searched under, or the run's
    spec's (`bound_us`, or its old name `p99_bound_us`, at `bound_percentile`)."""
    searched = {json.loads(row["configuration"]).get("experiment"): _searched_bound(row)
                for row in run.saturations}
    if "bound_us" not in run.spec_text:
        return searched
    try:
        spec = parse_spec(run.spec_text, run.spec_path)
    except SpecError:
        return searched  # the factorial section says that the stored spec no longer validates
    return {**{e.name: e.bound for e in spec.experiments if e.bound is not None},
            **searched}


def _searched_bound(row: dict) -> Bound:
    return Bound(row["bound_us"], row["percentile"])


def _searched(line: dict, saturations: list[dict]) -> dict | None:
    """The search of `mwbench saturate` for this line's configuration, if the run has one."""
    wanted = line["configuration"]
    return next((row for row in saturations
                 if configuration_key(json.loads(row["configuration"])) == wanted), None)


def sustainable_rows(found: list[dict], saturations: list[dict] = ()) -> list[dict]:
    """The table of the maximum sustainable rate: a row per line, as `mwbench saturate`
    found it where it searched that configuration, else from the sweep."""
    rows = []
    for line in found:
        if (search := _searched(line, saturations)) is not None:
            rows.append(_search_row(line, search))
            continue
        points, index = line["points"], line["sustainable"]
        rule = line["sustainable_rule"]
        after = points[index + 1] if index is not None and index + 1 < len(points) else (
            points[0] if index is None else None)
        bound = line["bound"]
        rows.append({
            "experiment": line["experiment"], "series": line["series"],
            "criterion": (f"{bound.name} ≤ {bound.us:,g} µs" if bound is not None
                          else f"the knee ({KNEE_PERCENTILE} ≤ {KNEE_GROWTH:g} × its value at "
                               "the lowest rate)"),
            "rate": None if index is None else points[index]["rate"],
            "at_us": None if index is None else points[index][bound.key if bound
                                                                else KNEE_PERCENTILE],
            "reading": _reading(rule, after, bound, points),
        })
    return rows


def _search_row(line: dict, search: dict) -> dict:
    bound, rate = _searched_bound(search), search["max_rate_per_s"]
    at = [p.get(bound.stat_key) for p in search["probes"] if p["rate_per_s"] == rate]
    return {"experiment": line["experiment"], "series": line["series"],
            "criterion": f"{bound.name} < {bound.us:,g} µs (mwbench saturate, "
                         f"{len(search['probes'])} rates probed)",
            "rate": rate, "at_us": at[0] if at else None, "reading": search["reason"]}


def _reading(rule: str, after: dict | None, bound: Bound | None, points: list[dict]) -> str:
    """What ended the line, in words."""
    if not rule:
        return f"every rate measured held, up to {points[-1]['rate']:,g}/s: the sweep " \
               "stops before the middleware does"
    at = f"at {after['rate']:,g}/s"
    if rule == "achieved":
        return (f"{at} the calls answered came at {after['achieved']:,.0f}/s, below "
                f"{100 * SUSTAINED:.0f}% of the {after['offered'] or after['rate']:,.0f}/s "
                "offered")
    if bound is not None:
        return (f"{at} the {bound.name} was {after[bound.key]:,.1f} µs, above the bound of "
                f"{bound.us:,g} µs")
    return (f"{at} the p99 was {after['p99']:,.1f} µs, above {KNEE_GROWTH:g} × the p99 at "
            f"the lowest rate ({points[0]['p99']:,.1f} µs)")


def figure(found: list[dict]) -> str:
    """A panel per driver: each line's p50, p99 and p99.9 against the offered rate, on a log
    scale, its knee ringed; the bound, where given, as a grey line (and the line's figure
    at the bound's percentile, where the three are not it)."""
    drivers = list(dict.fromkeys(line["driver"] for line in found))
    columns = 1 if len(drivers) == 1 else 2
    rows = math.ceil(len(drivers) / columns)
    count = max(sum(1 for line in found if line["driver"] == d) for d in drivers)
    shown, grid = plt.subplots(rows, columns, figsize=(10, (2.8 + 0.16 * count) * rows),
                               sharey=True, squeeze=False, layout="constrained")
    every_rate = [p["rate"] for line in found for p in line["points"]]
    for axes, driver in zip(grid.flat, drivers, strict=False):
        members = [line for line in found if line["driver"] == driver]
        for line, style in zip(members, LINE_STYLES, strict=False):
            _draw(axes, line, style["color"])
        bounds = list(dict.fromkeys(line["bound"] for line in members if line["bound"]))
        for bound in bounds:
            axes.axhline(bound.us, color="#7f8c8d", linewidth=1, linestyle="dashdot")
        axes.set_title(driver, fontsize=9, loc="left")
        axes.set_yscale("log")
        if wide(every_rate):
            axes.set_xscale("log")
        axes.set_xlabel("offered calls/s")
        axes.set_ylabel("µs from the intended start")
        handles, _ = axes.get_legend_handles_labels()
        axes.legend(handles=handles + _key(bounds), fontsize=7, loc="upper left",
                    bbox_to_anchor=(0, -0.18), frameon=False, ncol=2)
    for axes in list(grid.flat)[len(drivers):]:
        axes.set_visible(False)
    return to_svg(shown)


def _draw(axes, line: dict, colour) -> None:
    x = np.array([p["rate"] for p in line["points"]], dtype=float)
    for key, _, dash in PERCENTILES:
        axes.plot(x, [p[key] for p in line["points"]], color=colour, linestyle=dash,
                  marker="o", markersize=2.5, linewidth=1.2,
                  label=f"{line['series'] or line['driver']}" if key == "p99" else None)
    if (bound := line["bound"]) is not None and bound.key not in (k for k, _, _ in PERCENTILES):
        axes.plot(x, [p[bound.key] for p in line["points"]], color=colour,
                  linestyle=BOUND_ONLY_DASH, marker="o", markersize=2.5, linewidth=1.2)
    if line["knee"] is not None:
        knee, at = line["points"][line["knee"]], line["knee_at"]
        axes.plot(knee["rate"], knee[at], marker="o", markersize=11, fillstyle="none",
                  markeredgewidth=1.5, color=colour)
        if line["knee_rule"]:
            axes.annotate(knee_rule_text(line["knee_rule"]), (knee["rate"], knee[at]),
                          xytext=(6, 6), textcoords="offset points", fontsize=7, color=colour)


def knee_rule_text(rule: str) -> str:
    """The rule that ended a line, as the figure writes it beside the knee."""
    if rule == "achieved":
        return f"knee: then achieved < {100 * SUSTAINED:.0f}% of offered"
    return f"knee: then {rule.replace('p999', 'p99.9')} > {KNEE_GROWTH:g} × the lowest rate's"


def _key(bounds: list[Bound]) -> list[Line2D]:
    """What the styles mean, in grey: the percentiles, the knee, the bounds."""
    grey = "#56606a"
    drawn = {key: dash for key, _, dash in PERCENTILES}
    for bound in bounds:
        drawn.setdefault(bound.key, BOUND_ONLY_DASH)
    return [*(Line2D([], [], color=grey, linestyle=dash, label=key.replace("p999", "p99.9"))
              for key, dash in drawn.items()),
            Line2D([], [], color=grey, marker="o", markersize=9, fillstyle="none",
                   linestyle="none", label="knee"),
            *(Line2D([], [], color="#7f8c8d", linestyle="dashdot", label=f"{name} bound")
              for name in dict.fromkeys(b.name for b in bounds))]

