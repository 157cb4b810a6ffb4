"""A two-level factor's cost at each level of the others: the design's simple effects as
ratios of medians, launch by launch.

The question OpenCCM asked of each ORB is what the component layer costs on
it: the median with components over the median with objects, per ORB, not
the average over the ORBs that a main effect is. For each factor of a design
that has two levels, at each combination of the other factors' levels, this
is the median of its second level over its first's, with the interval of a
paired hierarchical bootstrap over launches: the k-th launches of the two
cells ran in the same block of the run's schedule (launches/schedule.py),
so a slow stretch of the machine that hit both cancels, as in the baseline
ratios (baseline.py).
"""

import itertools

from ...launches.estimate import paired_ratio
from ..data import Configuration


def simple_ratios(factors: list[tuple], cells: dict[tuple, Configuration]) -> list[dict]:
    """Rows {factor, change, at, ratio}: `ratio` an Estimate, or None for two cells that share
    no launch number."""
    rows = []
    for position, (name, levels) in enumerate(factors):
        if len(levels) != 2:
            continue
        others = [factor for index, factor in enumerate(factors) if index != position]
        for rest in itertools.product(*(range(len(other)) for _, other in others)):
            low, high = (cells[(*rest[:position], level, *rest[position:])] for level in (0, 1))
            rows.append({
                "factor": name, "change": f"{levels[0]} → {levels[1]}",
                "at": ", ".join(f"{n}={values[i]}" for (n, values), i in
                                zip(others, rest, strict=True)) or "all",
                "ratio": paired_ratio(high.launches, low.launches, 50,
                                      key=(high.key, low.key, "simple ratio")),
            })
    return rows
