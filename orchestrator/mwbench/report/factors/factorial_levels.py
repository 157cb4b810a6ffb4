"""The report's reading of a full factorial design: factors of two to six levels.

OpenCCM's question asked of three ORBs (omniorb, jacorb, glassfish) x the
component layer (object, component) is a 3x2, which has no low and high
level per factor: each level has an effect of its own, its mean less the
grand mean (Jain, chapter 22; full_factorial.py has the formulas). The view
gives, per measure, the cell means; the effect of each level and of each
combination of levels of an interaction, with its bootstrap interval over
launches; and the allocation of variation, a share per term with Jain's
F test, and the error between launches.
"""

import numpy as np

from ...full_factorial import Analysis, analyse
from ..figures import plt, to_svg
from .factorial_metrics import METRICS

SIGNIFICANCE = 0.05  # of the F test


def fill(view: dict, factors: list[tuple], observed: dict, carried: dict) -> dict:
    """Complete `view` (factorial.py's design) with the full factorial's reading of
    `observed` ({measure: array [levels..., launch] or None}); `carried`: per cell (its
    index), the levels of the factors the design's levels decide."""
    names = [name for name, _ in factors]
    analyses = {m: analyse(y) if y is not None else None for m, y in observed.items()}
    view["factors"] = [{"name": n, "levels": levels} for n, levels in factors]
    view["cells"] = [{"levels": [levels[i] for (_, levels), i in zip(factors, index,
                                                                     strict=True)],
                      "carried": carried[index] if view["carried"] else [],
                      "means": {m: None if a is None else float(a.cell_means[index])
                                for m, a in analyses.items()}}
                     for index in np.ndindex(*(len(levels) for _, levels in factors))]
    first = next((a for a in analyses.values() if a is not None), None)
    if first is None:
        view["sentence"] = "The cells recorded no measure, so no effect could be computed."
        return view
    view["terms"] = [{"name": " × ".join(names[i] for i in term.factors),
                      "interaction": term.is_interaction, "df": term.degrees_of_freedom,
                      "metrics": {m: None if a is None else {
                          "share": a.terms[t].share, "p": a.terms[t].p_value}
                          for m, a in analyses.items()}}
                     for t, term in enumerate(first.terms)]
    view["effects"] = [
        {"name": " × ".join(f"{names[i]}={factors[i][1][level]}"
                            for i, level in zip(term.factors, effect.levels, strict=True)),
         "interaction": term.is_interaction,
         "metrics": {m: None if a is None else a.terms[t].effects[e]
                     for m, a in analyses.items()}}
        for t, term in enumerate(first.terms) for e, effect in enumerate(term.effects)]
    view["error"] = {m: None if a is None else a.error_share for m, a in analyses.items()}
    view["sentence"] = sentence(factors, analyses["median"])
    view["figure"] = figure(view, factors, observed)
    return view


def sentence(factors: list[tuple], analysis: Analysis | None) -> str:
    """Which term of the median explains most, and whether an interaction is significant."""
    names = [name for name, _ in factors]
    if analysis is None:
        return "The cells recorded no median, so no effect could be computed."
    top = max(analysis.terms, key=lambda term: term.share or 0.0)
    if top.share is None:
        return "The median was the same in every launch of every cell: no factor matters."
    name = " × ".join(names[i] for i in top.factors)
    largest = max(top.effects, key=lambda effect: abs(effect.estimate))
    what = f"the interaction {name}" if top.is_interaction else name
    levels = ", ".join(f"{names[i]}={factors[i][1][level]}" for i, level in zip(
        top.factors, largest.levels, strict=True))
    text = (f"Median time per call: {what} explains most of the variation "
            f"({100 * top.share:.0f}%; largest effect {largest.estimate:+.3f} µs at {levels})")
    if analysis.launches == 1:
        return text + ("; with one launch there is no error term, so whether the interaction "
                       "is significant cannot be told.")
    interactions = [t for t in analysis.terms if t.is_interaction]
    significant = [" × ".join(names[i] for i in t.factors) for t in interactions
                   if t.p_value is not None and t.p_value < SIGNIFICANCE]
    if significant:
        text += f"; the interaction {', '.join(significant)} is significant (F test, p < 0.05)"
    else:
        text += "; no interaction is significant (F test, p ≥ 0.05)"
    if analysis.error_share is not None and analysis.error_share > top.share:
        text += (f", and the launches vary more than any term explains "
                 f"({100 * analysis.error_share:.0f}% of the variation)")
    return text + "."


def figure(view: dict, factors: list[tuple], observed: dict) -> str:
    """Interaction plot: each measure against the first factor's levels, a line per
    combination of the other factors' levels; parallel lines mean no interaction."""
    shown, axes = plt.subplots(1, len(METRICS), figsize=(11, 2.8))
    first, first_levels = factors[0]
    others = list(np.ndindex(*(len(levels) for _, levels in factors[1:])))
    for ax, (metric, heading, _, _) in zip(axes, METRICS, strict=True):
        y = observed[metric]
        ax.set_title(heading, fontsize=8)
        positions = range(len(first_levels))
        ax.set_xticks(list(positions), [str(level) for level in first_levels], fontsize=7)
        ax.set_xlabel(first, fontsize=7)
        if y is None:
            continue
        for rest in others:
            rows = np.stack([y[(i, *rest)] for i in positions])  # (first's levels, launches)
            name = ", ".join(f"{n}={levels[j]}" for (n, levels), j in
                             zip(factors[1:], rest, strict=True))
            line, = ax.plot(list(positions), rows.mean(axis=1), marker="o", label=name)
            for x in positions:  # every launch, faintly, to show the spread behind the mean
                ax.plot([x] * rows.shape[1], rows[x], linestyle="none", marker=".",
                        alpha=0.35, color=line.get_color())
        ax.set_xlim(-0.3, len(first_levels) - 0.7)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    return to_svg(shown)
