"""Phases of a sample: where the time of one whole operation goes, per configuration.

For an experiment whose cells have named series (driver contract section 4),
as the deploy driver's sample is one whole assembly of a component
application and each phase of it a named series, the report gives what
Subramonian et al. give for CIAO's static and dynamic configuration (their
Table 1), and two readings more:

- per configuration (static against dynamic assembly, per plan), a table of
  a row per series (segments indented under their whole, in the order the
  result file lists them) with the min, max and mean over every sample of
  its cells: the launches are pooled, as the configurations of the rest of
  the report are. A table per configuration, so the page fits any number of
  them; each table in one unit (ms or µs), the one its largest value reads
  best in;
- per root series that has parts (`total`), a stacked bar per configuration
  of the mean of each direct part, and "other": the whole less the sum of
  its parts, what no part accounts for. Steps timed at once in several
  processes each count whole, so parts can add up to more than the whole:
  "other" is then drawn as 0 and a note names the configuration;
- the footprint (bytes on disk, peak resident memory, per process role and
  in all) when the driver recorded one in `middleware_config.footprint`,
  read defensively, as the key is the driver's to shape.
"""

import math
from pathlib import PurePath

import numpy as np

from ..named_series import NamedSeries
from .data import Configuration, Experiment
from .figures import plt, to_svg
from .footprint import known_count, median_of, size_text

OTHER = "other"
NS_PER = {"ms": 1e6, "µs": 1e3}


def section(anchor: str, experiment: Experiment) -> dict | None:
    """The phases section of an experiment, or None when no cell has named series."""
    measured = [c for c in experiment.configurations
                if c.ok and any(len(series) for series in c.named_series)]
    if not measured:
        return None
    pooled = [_pooled(c.named_series) for c in measured]
    layout = _layout(pooled)
    stacks = [_stack(whole, layout.parts(whole), measured, pooled)
              for whole in layout.roots() if layout.parts(whole)]
    return {
        "id": f"{anchor}-phases",
        "tables": [_table(c, series, layout) for c, series in zip(measured, pooled, strict=True)],
        "stacks": stacks,
        "notes": [note for stack in stacks for note in stack["notes"]],
        "figures": [_figure(f"{anchor}-phases-{stack['whole']}", stack) for stack in stacks],
        "footprint": footprint_rows(measured),
    }


def _names_and_wholes(cells: list[NamedSeries]) -> tuple[list[str], dict[str, str | None]]:
    """Every name the cells hold, in order of first appearance, each with the whole the
    first cell holding it gives. That cell holds the whole too, so a chain of wholes only
    reaches names seen as early or earlier: a loop would lie within one file, and the
    reader refuses those."""
    wholes: dict[str, str | None] = {}
    for series in cells:
        for name in series:
            wholes.setdefault(name, series.part_of.get(name))
    return list(wholes), wholes


def _pooled(cells: list[NamedSeries]) -> NamedSeries:
    """A configuration's series: each one's values over all its cells (launches)."""
    names, wholes = _names_and_wholes(cells)
    return NamedSeries({name: np.concatenate([s[name] for s in cells if name in s])
                        for name in names}, wholes)


def _layout(pooled: list[NamedSeries]) -> NamedSeries:
    """The rows of the table: every configuration's series, without values."""
    names, wholes = _names_and_wholes(pooled)
    return NamedSeries({name: np.empty(0, dtype=np.int64) for name in names}, wholes)


def _table(configuration: Configuration, series: NamedSeries, layout: NamedSeries) -> dict:
    """A configuration's table: a row per series of the layout it has, in one unit."""
    counts = {values.size for values in series.values()}
    # The launches that have named series: those the pooled values come from.
    launches = sum(1 for cell_series in configuration.named_series if len(cell_series))
    unit = _unit(max((float(v.max()) for v in series.values() if v.size), default=0.0))
    rows = [_row(name, depth, series, unit) for name, depth in layout.tree_order()
            if name in series and series[name].size]
    return {"label": configuration.label, "samples": max(counts, default=0),
            "launches": launches, "recorded": _recorded(configuration), "unit": unit,
            "rows": rows}


def _recorded(configuration: Configuration) -> str:
    """What the driver says it assembled (middleware_config: the plan, by its name, and the
    assembly), where the label does not say it already and every cell says the same."""
    said = set()
    for cell in configuration.cells:
        config = (cell.get("measurer_header") or {}).get("middleware_config")
        config = config if isinstance(config, dict) else {}
        said.add(tuple(f"{key} {name}" for key in ("assembly", "plan")
                       if isinstance(config.get(key), str)
                       and (name := _plan_name(config[key]) if key == "plan" else config[key])
                       and name not in configuration.label))
    return ", ".join(said.pop()) if len(said) == 1 else ""


def _plan_name(plan: str) -> str:
    """A plan by its name: a plan file's stem (`/…/basic_sp_one_process.cdp`: the name the
    spec gives it), not the path it had on the machine that ran it."""
    return PurePath(plan).stem if "/" in plan or "." in plan else plan


def _row(name: str, depth: int, series: NamedSeries, unit: str) -> dict:
    values = series[name] / NS_PER[unit]
    return {"name": name, "depth": depth, "min": _number(values.min()),
            "max": _number(values.max()), "mean": _number(values.mean())}


def _unit(largest_ns: float) -> str:
    """ms from a millisecond up, µs below: three significant figures either way."""
    return "ms" if largest_ns >= NS_PER["ms"] else "µs"


def _number(value: float) -> str:
    """At most three significant figures (more only above a thousand), never an exponent."""
    value = float(value)
    if value == 0:
        return "0"
    decimals = max(0, 2 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}"


def _stack(whole: str, parts: list[str], measured: list[Configuration],
           pooled: list[NamedSeries]) -> dict:
    """A bar per configuration that has `whole`: its parts' means, and `other`."""
    bars, notes = [], []
    for configuration, series in zip(measured, pooled, strict=True):
        if whole not in series or not series[whole].size:
            continue
        means = {part: float(series[part].mean()) for part in parts if part in series}
        whole_mean = float(series[whole].mean())
        summed = sum(means.values())
        bars.append({"label": configuration.label, "whole": whole_mean, "means": means,
                     "other": max(0.0, whole_mean - summed)})
        if summed > whole_mean:
            unit = _unit(max(summed, whole_mean))
            notes.append(
                f"{configuration.label}: the parts of {whole} add up to "
                f"{_number(summed / NS_PER[unit])} {unit} on average, "
                f"{100 * (summed / whole_mean - 1) if whole_mean else math.inf:.0f}% more than "
                f"{whole} itself ({_number(whole_mean / NS_PER[unit])} {unit}): steps that run "
                "at the same time in several processes each count whole, so \"other\" is "
                "drawn as 0.")
    return {"whole": whole, "parts": parts, "bars": bars, "notes": notes}


def _figure(figure_id: str, stack: dict) -> dict:
    whole = stack["whole"]
    return {
        "id": figure_id, "kind": "phases", "title": f"Where the time of {whole} goes",
        "svg": figure(stack),
        "shows": f"For each configuration, the mean time per sample of each direct part of "
                 f"{whole}, stacked in the order of the result file, then \"other\": {whole} "
                 "less the sum of its parts, the time no part accounts for. The black tick "
                 f"marks the mean of {whole} itself.",
        "limits": "Means hide the spread (the table gives each part's min and max). Parts "
                  "timed at once in several processes each count whole and can add up to "
                  "more than the whole (\"other\" is then 0, and a note says so); a part's "
                  "own segments (a library load within home creation) are inside its bar, "
                  "and series that are part of nothing else stand in the table only.",
    }


def figure(stack: dict) -> str:
    """Stacked horizontal bars, one per configuration, the same colour for a part in all."""
    bars = stack["bars"]
    # The longer of the stack and the whole's tick sets the unit.
    unit = _unit(max(max(bar["whole"], sum(bar["means"].values()) + bar["other"])
                     for bar in bars))
    scale = NS_PER[unit]
    shown, axes = plt.subplots(figsize=(10, 1.4 + 0.45 * len(bars)))
    positions = np.arange(len(bars))[::-1]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    left = np.zeros(len(bars))
    for index, part in enumerate([*stack["parts"], OTHER]):
        if part == OTHER:
            widths = np.array([bar["other"] for bar in bars]) / scale
            style = {"color": "#d5d8dc", "hatch": "//", "edgecolor": "#7f8c8d"}
        else:
            widths = np.array([bar["means"].get(part, 0.0) for bar in bars]) / scale
            style = {"color": colours[index % len(colours)]}
        axes.barh(positions, widths, left=left, height=0.6, label=part, linewidth=0.4,
                  **style)
        left += widths
    axes.plot([bar["whole"] / scale for bar in bars], positions, linestyle="none",
              marker="|", markersize=18, markeredgewidth=2, color="black",
              label=f"{stack['whole']} (mean)")
    axes.set_yticks(positions, [bar["label"] for bar in bars])
    axes.set_xlabel(f"{unit} per sample (mean over every sample of the configuration)")
    axes.set_xlim(left=0)
    # Below the bars, in rows: beside them it would widen the figure past the page.
    axes.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.45 / len(bars) - 0.25),
                ncol=4, frameon=False)
    return to_svg(shown)


def footprint_rows(configurations: list[Configuration]) -> list[dict]:
    """Per configuration, each process the driver measured (by its place in the list) and
    then all of them: size (loaded sections), bytes on disk and peak resident memory, the
    median over the cells
    (launches) that recorded them. Configurations without a footprint are left out."""
    rows = []
    for configuration in configurations:
        found = [footprint for cell in configuration.cells
                 if (footprint := _footprint(cell.get("measurer_header")))]
        if not found:
            continue
        count = max(len(f["processes"]) for f in found)
        for index in range(count):
            same = [f["processes"][index] for f in found if index < len(f["processes"])]
            rows.append(_footprint_row(configuration.label, _process_name(same[0]), same,
                                       len(found)))
        rows.append(_footprint_row(configuration.label, "all processes", found, len(found)))
    return rows


def _footprint(header: dict | None) -> dict | None:
    """An assembly's footprint (the deploy driver's: its processes' mapped files); a JVM's
    (classes loaded, footprint.py) is another table's."""
    config = (header or {}).get("middleware_config")
    footprint = config.get("footprint") if isinstance(config, dict) else None
    if not isinstance(footprint, dict) or "classes_loaded" in footprint:
        return None
    processes = footprint.get("processes")
    processes = [p for p in processes if isinstance(p, dict)] if isinstance(processes, list) \
        else []
    return {**footprint, "processes": processes}


def _process_name(process: dict) -> str:
    role, program = process.get("role"), process.get("program")
    parts = [str(part) for part in (role, program) if isinstance(part, str) and part]
    return f"{parts[0]} ({parts[1]})" if len(parts) == 2 else (parts[0] if parts else "process")


def _footprint_row(label: str, process: str, entries: list[dict], cells: int) -> dict:
    size = median_of([known_count(entry.get("size_bytes")) for entry in entries])
    disk = median_of([known_count(entry.get("disk_bytes")) for entry in entries])
    resident_kb = median_of([known_count(entry.get("peak_rss_kb")) for entry in entries])
    return {"configuration": label, "process": process, "size": size_text(size),
            "disk": size_text(disk),
            "resident": size_text(None if resident_kb is None else resident_kb * 1024),
            "cells": cells}
