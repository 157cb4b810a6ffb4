"""Factorial designs: main effects and interactions of the factors an experiment declares.

OpenCCM's measurements on two Java ORBs were a 2x2 factorial (ORB x component
layer); an experiment whose spec says `factorial: [A, B]` (or three factors)
gets the same reading here. For every configuration of its other factors:
the cell means of the design, for four measures of each launch (the median
time per call, the calls per second, the standard deviation of the call
times, which is OpenCCM's jitter, and p99 - p50), then each main effect and
interaction with its share of the variation and, with launches, a bootstrap
interval; and for each factor of two levels its cost at each level of the
others, a ratio of medians launch by launch (factorial_ratios.py). A design
whose factors all have two levels is read as a 2^k r
design (factorial_design.py); one with a factor of more levels (orb:
omniorb, jacorb, glassfish) as a full factorial (full_factorial.py, the
view in factorial_levels.py).

A factor outside the design that the design's levels decide (the driver,
when each ORB is one driver's: ccm runs omniorb, java jacorb and glassfish)
does not split the design: it is carried by the cells, and shown in them.

The declaration is read back from the spec stored with the run, so the
report analyses exactly what was declared when the run was measured.
"""

import itertools
import json

import numpy as np

from ...factorial_design import Analysis, analyse
from ...spec import OPTION_PREFIX, SpecError, factor_levels, parse_spec
from ..data import LABEL_FACTORS, Configuration, Run, label
from ..figures import plt, to_svg
from . import factorial_levels
from .factorial_metrics import METRICS
from .factorial_ratios import simple_ratios


def designs(run: Run) -> dict:
    """Every declared design of the run: {"designs": [...], "notes": [...]}."""
    declared, notes = _declared(run)
    found = []
    for experiment in run.experiments:
        if experiment.name not in declared:
            continue
        factors = declared[experiment.name]
        carried = _carried(experiment, factors)
        for group in _groups(experiment, factors, carried):
            view = _design(experiment, factors, group, carried)
            view["id"] = f"run{run.id}-factorial-{experiment.name}-{len(found)}"
            found.append(view)
    if declared and not found:
        notes.append("No configuration of a declared design has a successful cell.")
    metrics = [{"key": m, "heading": heading, "format": form} for m, heading, form, _ in METRICS]
    return {"designs": found, "notes": notes, "metrics": metrics}


def _declared(run: Run) -> tuple[dict, list[str]]:
    """{experiment: [(factor, [its levels, in the spec's order]), ...]} from the run's spec."""
    if "factorial" not in run.spec_text:
        return {}, []
    try:
        spec = parse_spec(run.spec_text, run.spec_path)
    except SpecError as error:
        return {}, [f"The spec stored with this run no longer validates, so its factorial "
                    f"designs cannot be read: {error}"]
    return {e.name: [(name, list(dict.fromkeys(factor_levels(spec, e, name))))
                     for name in e.factorial]
            for e in spec.experiments if e.factorial}, []


def _value(factors: dict, name: str):
    if name.startswith(OPTION_PREFIX):
        return (factors["options"] or {}).get(name.removeprefix(OPTION_PREFIX))
    return factors[name]


def _rest(factors: dict, names: list[str]) -> dict:
    """The configuration's other factors: the design's own removed (options key by key)."""
    options = {k: v for k, v in (factors["options"] or {}).items()
               if OPTION_PREFIX + k not in names}
    return {name: (options or None) if name == "options" else factors[name]
            for name in LABEL_FACTORS if name not in names}


def _cell_of(configuration: Configuration, factors: list[tuple]) -> tuple[int, ...] | None:
    """The levels of the design a configuration measures, by position; None for a value
    outside the design (an inproc transport, say)."""
    index = []
    for name, levels in factors:
        value = _value(configuration.factors, name)
        if value not in levels:
            return None
        index.append(levels.index(value))
    return tuple(index)


def _carried(experiment, factors: list[tuple]) -> list[str]:
    """The factors outside the design that vary and yet take one value in each cell of it:
    the design's levels decide them (the driver of each ORB), so they do not split it."""
    names = [name for name, _ in factors]
    seen: dict[str, dict[tuple, set]] = {}
    for c in experiment.configurations:
        if c.ok and (index := _cell_of(c, factors)) is not None:
            for name, value in _rest(c.factors, names).items():
                seen.setdefault(name, {}).setdefault(index, set()).add(_key(value))
    return [name for name, by_cell in seen.items()
            if len(set().union(*by_cell.values())) > 1
            and all(len(values) == 1 for values in by_cell.values())]


def _key(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value


def _groups(experiment, factors: list[tuple], carried: list[str]) -> list[dict]:
    """Configurations by their other factors, each placed at its cell of the design."""
    names = [name for name, _ in factors]
    groups: dict[str, dict] = {}
    for c in experiment.configurations:
        if not c.ok or (index := _cell_of(c, factors)) is None:
            continue
        rest = _rest(c.factors, names + carried)
        key = json.dumps(rest, sort_keys=True)
        groups.setdefault(key, {"rest": rest, "cells": {}})["cells"][index] = c
    return list(groups.values())


def _design(experiment, factors: list[tuple], group: dict, carried: list[str]) -> dict:
    names = [name for name, _ in factors]
    varying = [name for name in experiment.varying() if name not in names + carried]
    view = {"experiment": experiment.name,
            "configuration": label(group["rest"], varying) if varying else "all",
            "kind": "2k" if all(len(levels) == 2 for _, levels in factors) else "full",
            "missing": [], "cells": [], "effects": [], "error": {}, "launches": 0,
            "dropped": 0, "sentence": "", "figure": None, "carried": carried, "ratios": []}
    cells = group["cells"]
    grid = list(itertools.product(*(range(len(levels)) for _, levels in factors)))
    view["missing"] = [", ".join(f"{n}={levels[i]}" for (n, levels), i in
                                 zip(factors, index, strict=True))
                       for index in grid if index not in cells]
    if view["missing"]:
        view["factors"] = [{"name": n, "levels": levels} for n, levels in factors]
        return view
    launches = _common_launches(list(cells.values()))
    view["launches"] = len(launches)
    # A launch one cell lacks (it failed there) is left out of every cell.
    view["dropped"] = max(len(c.cells) for c in cells.values()) - len(launches)
    if not launches:
        view["missing"] = ["no launch in which every cell succeeded"]
        view["factors"] = [{"name": n, "levels": levels} for n, levels in factors]
        return view
    shape = tuple(len(levels) for _, levels in factors)
    observed = {m: _observations(cells, shape, launches, read) for m, _, _, read in METRICS}
    carried_levels = {index: [" ".join(label(c.factors, [name]) for name in carried)]
                      for index, c in cells.items()}
    view["ratios"] = simple_ratios(factors, cells)
    if view["kind"] == "full":
        return factorial_levels.fill(view, factors, observed, carried_levels)
    return _two_level(view, factors, observed, carried_levels)


def _two_level(view: dict, factors: list[tuple], observed: dict,
               carried_levels: dict) -> dict:
    """The 2^k r reading: cells in standard order (the first factor changes fastest)."""
    names = [name for name, _ in factors]
    k = len(factors)
    order = [tuple(i >> bit & 1 for bit in range(k)) for i in range(2 ** k)]
    rows = {m: None if y is None else np.array([y[index] for index in order])
            for m, y in observed.items()}
    analyses = {m: analyse(y) if y is not None else None for m, y in rows.items()}
    view["factors"] = [{"name": n, "low": levels[0], "high": levels[1]} for n, levels in factors]
    view["cells"] = [{"levels": [levels[i] for (_, levels), i in zip(factors, index,
                                                                     strict=True)],
                      "carried": carried_levels[index] if view["carried"] else [],
                      "means": {m: None if a is None else a.cell_means[position]
                                for m, a in analyses.items()}}
                     for position, index in enumerate(order)]
    view["effects"] = _effect_rows(names, analyses)
    view["error"] = {m: None if a is None else a.error_share for m, a in analyses.items()}
    two_level = [(name, levels[0], levels[1]) for name, levels in factors]
    view["sentence"] = _sentence(two_level, analyses["median"])
    view["figure"] = _figure(view, two_level, rows)
    return view


def _common_launches(members: list[Configuration]) -> list[int]:
    """Launches every cell of the design has, so that the design stays balanced."""
    sets = [{row["launch"] for row in c.cells} for c in members]
    return sorted(set.intersection(*sets))


def _observations(cells: dict, shape: tuple[int, ...], launches: list[int],
                  read) -> np.ndarray | None:
    """A measure of every launch of every cell, indexed [levels..., launch]."""
    y = np.empty((*shape, len(launches)))
    for index, configuration in cells.items():
        by_launch = {row["launch"]: read(row) for row in configuration.cells}
        values = [by_launch[r] for r in launches]
        if any(v is None for v in values):
            return None  # a measure a cell lacks (no throughput recorded) is left out
        y[index] = values
    return y


def effect_name(names: list[str], terms: tuple[int, ...]) -> str:
    return " × ".join(names[i] for i in terms)


def _effect_rows(names: list[str], analyses: dict[str, Analysis | None]) -> list[dict]:
    first = next((a for a in analyses.values() if a is not None), None)
    if first is None:
        return []
    rows = []
    for index, effect in enumerate(first.effects):
        rows.append({"name": effect_name(names, effect.factors),
                     "interaction": effect.is_interaction,
                     "metrics": {m: None if a is None else a.effects[index]
                                 for m, a in analyses.items()}})
    return rows


def _sentence(factors: list[tuple], analysis: Analysis | None) -> str:
    """Which effect on the median matters most, and whether an interaction is significant."""
    if analysis is None:
        return "The cells recorded no median, so no effect could be computed."
    names = [name for name, *_ in factors]
    top = max(analysis.effects, key=lambda e: abs(e.estimate))
    if top.share is None:
        return "The median was the same in every launch of every cell: no factor matters."
    if top.is_interaction:
        what = f"the interaction {effect_name(names, top.factors)} matters most"
        change = f"{top.estimate:+.3f} µs"
    else:
        name, low, high = factors[top.factors[0]]
        what = f"{name} matters most"
        change = f"{top.estimate:+.3f} µs from {low} to {high}"
    text = f"Median time per call: {what} ({100 * top.share:.0f}% of the variation, {change})"
    interactions = [e for e in analysis.effects if e.is_interaction]
    if analysis.launches == 1:
        text += ("; with one launch there is no interval, so whether the interaction is "
                 "significant cannot be told")
    else:
        significant = [effect_name(names, e.factors) for e in interactions if e.significant]
        if significant:
            text += f"; the interaction {', '.join(significant)} is significant"
        else:
            text += "; no interaction is significant" if len(interactions) > 1 else \
                    "; the interaction is not significant"
        text += " (95% bootstrap interval excludes 0)" if significant else \
                " (its 95% bootstrap interval includes 0)"
        if analysis.error_share is not None and analysis.error_share > top.share:
            text += (f", and the launches vary more than any effect explains "
                     f"({100 * analysis.error_share:.0f}% of the variation)")
    return text + "."


def _figure(view: dict, factors: list[tuple], observed: dict) -> str:
    """Interaction plot: each measure against the first factor, a line per other levels.
    Parallel lines mean no interaction; crossing or diverging lines are one."""
    shown, axes = plt.subplots(1, len(METRICS), figsize=(11, 2.8))
    first, low, high = factors[0]
    for ax, (metric, heading, _, _) in zip(axes, METRICS, strict=True):
        y = observed[metric]
        ax.set_title(heading, fontsize=8)
        ax.set_xticks([0, 1], [str(low), str(high)], fontsize=7)
        ax.set_xlabel(first, fontsize=7)
        if y is None:
            continue
        for start in range(0, y.shape[0], 2):  # cells 2j (first low) and 2j+1 (first high)
            others = view["cells"][start]["levels"][1:]
            name = ", ".join(f"{n}={v}" for (n, *_), v in zip(factors[1:], others, strict=True))
            line, = ax.plot([0, 1], y[start:start + 2].mean(axis=1), marker="o", label=name)
            for x in (0, 1):  # every launch, faintly, to show the spread behind the mean
                ax.plot([x] * y.shape[1], y[start + x], linestyle="none", marker=".",
                        alpha=0.35, color=line.get_color())
        ax.set_xlim(-0.3, 1.3)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    return to_svg(shown)
