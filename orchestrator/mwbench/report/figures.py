"""The report's figures, drawn with matplotlib and returned as inline SVG.

Four kinds, each chosen to show what an average hides:
- box-and-whisker per configuration (median, quartiles, whiskers at p1 and
  p99) of the calls of all its launches pooled, with each launch's median as
  a dot above the box, so that the levels launches settle at are seen, and
  the throughput beside it;
- the percentile distribution, HdrHistogram style, a panel per driver with
  the raw socket in grey behind it: the x axis spreads the
  tail (50%, 90%, 99%, 99.9%, ...) so that rare slow calls are visible;
- for swept factors (payload, servants, threads): the median against the
  factor's value, with a p25-p75 band, and the throughput beside it.
Text stays text in the SVG (no embedded glyphs), so the page needs no fonts
from anywhere and the figures remain searchable.
"""

import io
import itertools
import math
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.ticker import EngFormatter  # noqa: E402

from .data import Configuration, Experiment, label  # noqa: E402

WHISKERS = (1, 99)
TAIL_PERCENTILES = (50, 90, 99, 99.9, 99.99, 99.999)
_counter = itertools.count()

plt.rcParams.update({
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    # Ten clearly distinct colours, then ten lighter ones: an experiment easily
    # has more than ten configurations.
    "axes.prop_cycle": matplotlib.cycler(color=matplotlib.colormaps["tab10"].colors
                                         + matplotlib.colormaps["tab20"].colors[1::2]),
})
# Lines of one panel: ten distinct colours, solid, then dashed, then dotted (never two
# lines alike, never two pale ones side by side).
LINE_STYLES = [{"color": colour, "linestyle": dash}
               for dash in ("solid", (0, (5, 2)), (0, (1, 1.5)), (0, (5, 2, 1, 2)))
               for colour in matplotlib.colormaps["tab10"].colors]


def to_svg(figure) -> str:
    """The figure as an <svg> element, with ids unique in the page."""
    plt.rcParams["svg.hashsalt"] = f"mwbench-figure-{next(_counter)}"
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(figure)
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]


def wide(values) -> bool:
    """Values over more than a factor of 20: a log scale keeps the small ones visible."""
    values = [v for v in values if v > 0]
    return bool(values) and max(values) / min(values) > 20


def box_and_throughput(configurations: list[Configuration]) -> str:
    configurations = [c for c in configurations if c.ok]
    height = 1.2 + 0.38 * len(configurations)
    figure, (latency, rate) = plt.subplots(
        1, 2, figsize=(10, height), sharey=True, gridspec_kw={"width_ratios": [3, 1.3]})
    stats = []
    for c in configurations:
        p1, q1, median, q3, p99 = np.percentile(c.per_call_us, [*WHISKERS[:1], 25, 50, 75,
                                                               WHISKERS[1]])
        stats.append({"label": c.label, "med": median, "q1": q1, "q3": q3,
                      "whislo": p1, "whishi": p99, "fliers": []})
    positions = np.arange(len(stats))[::-1]
    latency.bxp(stats, positions=positions, orientation="horizontal", showfliers=False, widths=0.6,
                patch_artist=True, boxprops={"facecolor": "#cfe0f3"},
                medianprops={"color": "#c0392b", "linewidth": 2})
    for position, c in zip(positions, configurations, strict=True):
        medians = [float(np.median(launch)) for launch in c.launches.values()]
        latency.plot(medians, np.full(len(medians), position + 0.42), linestyle="none",
                     marker="o", markersize=3.5, color="#1d2329", alpha=0.7,
                     label="a launch's median" if position == positions[0] else None)
    latency.legend(loc="lower right", fontsize=7, frameon=False)
    if wide([s["whislo"] for s in stats] + [s["whishi"] for s in stats]):
        latency.set_xscale("log")
    latency.set_xlabel("µs per call, all launches pooled (box: p25–p75, line: median, "
                       "whiskers: p1 and p99); dots: each launch's median")
    rates = [np.median(c.throughput_per_s) if c.throughput_per_s else 0 for c in configurations]
    spans = [(np.median(c.throughput_per_s) - min(c.throughput_per_s),
              max(c.throughput_per_s) - np.median(c.throughput_per_s))
             if c.throughput_per_s else (0, 0) for c in configurations]
    rate.barh(positions, rates, xerr=np.array(spans).T if spans else None, color="#7fb77e",
              height=0.6, capsize=2)
    if wide(rates):
        rate.set_xscale("log")
    rate.xaxis.set_major_formatter(EngFormatter())
    rate.set_xlabel("calls/s (median, min–max over launches)")
    latency.set_yticks(positions, [s["label"] for s in stats])
    return to_svg(figure)


def percentile_distribution(configurations: list[Configuration],
                            reference: str | None = None) -> str:
    """Small multiples: a panel per driver, its configurations' percentile lines on the
    same axes as every other panel's, and the `reference` driver's lines (the raw socket)
    in grey in each panel, so each line is read against it."""
    drawn = [c for c in configurations if c.ok]
    drivers = list(dict.fromkeys(c.factors["driver"] for c in drawn))
    columns = 1 if len(drivers) == 1 else 2
    rows = math.ceil(len(drivers) / columns)
    # Room under each panel for its legend, a line per configuration; the constrained
    # layout keeps each legend clear of the panel below it.
    lines = max(sum(len(_short(c).splitlines()) for c in drawn if c.factors["driver"] == d)
                for d in drivers)
    figure, grid = plt.subplots(rows, columns, figsize=(10, (2.6 + 0.14 * lines) * rows),
                                sharey=True, squeeze=False, layout="constrained")
    ticks = [p for p in TAIL_PERCENTILES if any(p <= _resolved(c) for c in drawn)]
    for axes, driver in zip(grid.flat, drivers, strict=False):
        if driver != reference:
            for c in drawn:
                if c.factors["driver"] == reference:
                    axes.plot(*_percentile_line(c), color="#b8bec4", linewidth=1, zorder=1)
        members = [c for c in drawn if c.factors["driver"] == driver]
        for c, style in zip(members, LINE_STYLES, strict=False):
            axes.plot(*_percentile_line(c), label=_short(c), linewidth=1.3, **style)
        axes.set_title(driver + (" (the raw socket)" if driver == reference else ""),
                       fontsize=9, loc="left")
        axes.set_xticks(_tail_x(np.array(ticks)), [f"{p:g}%" for p in ticks])
        axes.set_ylabel("µs per call")
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12), frameon=False)
    for axes in list(grid.flat)[len(drivers):]:
        axes.set_visible(False)
    if wide([c.per_call_us.min() for c in drawn] + [c.per_call_us.max() for c in drawn]):
        grid[0][0].set_yscale("log")
    figure.supxlabel("percentile (each tick is ten times rarer); grey: the raw socket",
                     fontsize=9)
    return to_svg(figure)


def _short(configuration: Configuration) -> str:
    """A configuration's label in its driver's panel: without the driver, wrapped."""
    words = [w for w in configuration.label.split() if w != configuration.factors["driver"]]
    return textwrap.fill(" ".join(words) or configuration.label, 44)


def _resolved(configuration: Configuration) -> float:
    """The highest percentile the samples resolve (one sample in the tail)."""
    return 100 * (1 - 1 / configuration.per_call_us.size)


def _percentile_line(configuration: Configuration) -> tuple[np.ndarray, np.ndarray]:
    grid = 100 - np.logspace(np.log10(50), np.log10(100 - _resolved(configuration)), 200)
    return _tail_x(grid), np.percentile(configuration.per_call_us, grid)


def _tail_x(percentiles: np.ndarray) -> np.ndarray:
    return np.log10(100 / (100 - np.asarray(percentiles, dtype=float)))


def sweep(experiment: Experiment, factor: str, mode: str) -> str:
    """Median (p25-p75 band) and throughput against one swept factor, a line per series."""
    others = [name for name in experiment.varying() if name not in (factor, "mode")]
    series: dict[str, list[Configuration]] = {}
    for c in experiment.configurations:
        if c.ok and c.factors[factor] is not None and c.factors["mode"] == mode:
            series.setdefault(label(c.factors, others) if others else "all", []).append(c)
    figure, (latency, rate) = plt.subplots(1, 2, figsize=(10, 3.8),
                                           gridspec_kw={"width_ratios": [3, 2]})
    values_seen = []
    for (name, members), style in zip(series.items(), itertools.cycle(LINE_STYLES),
                                      strict=False):
        members.sort(key=lambda c: c.factors[factor])
        x = np.array([c.factors[factor] for c in members], dtype=float)
        values_seen.extend(x)
        q25, q50, q75 = (np.array([c.percentile(q) for c in members]) for q in (25, 50, 75))
        line, = latency.plot(x, q50, marker="o", markersize=3, label=name, **style)
        latency.fill_between(x, q25, q75, alpha=0.2, color=line.get_color())
        rate.plot(x, [np.median(c.throughput_per_s) if c.throughput_per_s else np.nan
                      for c in members], marker="o", markersize=3, color=line.get_color())
    positive = [v for v in values_seen if v > 0]
    if positive and max(positive) / min(positive) >= 100:
        for axes in (latency, rate):
            axes.set_xscale("symlog", linthresh=max(min(positive), 1))
    name = factor.replace("_", " ")
    latency.set_xlabel(name)
    latency.set_ylabel("µs per call (line: median, band: p25–p75)")
    rate.set_xlabel(name)
    rate.set_ylabel("calls/s (median over launches)")
    rate.yaxis.set_major_formatter(EngFormatter())
    # Under the axes, not over the lines: a sweep of many series would hide them.
    latency.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.16), ncol=2,
                   frameon=False)
    return to_svg(figure)


def time_and_rate(found: list[dict], count: str, time: str, rate: str, *, count_label: str,
                  time_label: str, rate_label: str, log2: bool = False) -> str:
    """A sweep of a count (client threads, subscribers) as two panels: the median time
    against the count, and the rate of the whole system beside it; a line per item of
    `found`, whose "points" carry `count`, `time`, `rate` and "crowded". A point with more
    busy threads than the machine's CPUs (crowding.py) is drawn hollow."""
    shown, (times, rates) = plt.subplots(1, 2, figsize=(10, 3.8))
    for item in found:
        x = [p[count] for p in item["points"]]
        line, = times.plot(x, [p[time] for p in item["points"]], linewidth=1,
                           label=f"{item['experiment']}: {item['series']}")
        rates.plot(x, [p[rate] or np.nan for p in item["points"]], linewidth=1,
                   color=line.get_color())
        for p in item["points"]:
            face = "white" if p["crowded"] else line.get_color()
            times.plot(p[count], p[time], marker="o", markersize=5, markerfacecolor=face,
                       color=line.get_color())
            if p[rate]:
                rates.plot(p[count], p[rate], marker="o", markersize=5, markerfacecolor=face,
                           color=line.get_color())
    for axes in (times, rates):
        if log2:
            axes.set_xscale("log", base=2)
        axes.set_xlabel(count_label)
    times.set_ylabel(time_label)
    rates.set_ylabel(rate_label)
    rates.yaxis.set_major_formatter(EngFormatter())
    # Beside the figure, not over it: a sweep easily has ten lines.
    rates.legend(*times.get_legend_handles_labels(), fontsize=7, loc="upper left",
                 bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    return to_svg(shown)
