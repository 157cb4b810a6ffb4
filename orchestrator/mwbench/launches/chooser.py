"""Launches and samples per cell within a time budget, from measured variance and costs.

Kalibera and Jones's rule for two levels: the samples per launch that give
the most precision per second are

    S = sqrt( (launch cost / sample cost) * (within / between) )

where `within / S` is the variance of one launch's median and `between` the
variance that launches add on top of it (variance.py). A launch costs tens
of milliseconds here and a sample microseconds, so where launches settle at
different levels (between is large) the rule asks for many short launches;
where they agree, for fewer and longer ones. S is kept within
[MIN_SAMPLES, MAX_SAMPLES]: the far percentiles need samples too (p99 of
1,000 calls rests on its 10 slowest), and a launch is no place for hours.

Every cell of a run gets the same number of launches L, the largest that
fits the budget: the run's schedule is made of balanced blocks (every
cell's k-th launch in block k), and a cell's ratio to its baseline pairs
their launches block by block, which needs both to have launch k. With L
and S chosen, the expected half-width of a cell's 95% interval is t(L-1)
times the standard deviation the components give (Components.figure_variance).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .variance import Components

MIN_SAMPLES = 1000
MAX_SAMPLES = 100_000
MIN_LAUNCHES = 2  # an interval needs two; the chooser refuses a budget that allows one
MAX_LAUNCHES = 200


class BudgetError(ValueError):
    """The budget cannot hold what it must: the message says how much it needs."""


@dataclass(frozen=True)
class Choice:
    launches: int
    samples: int
    duration_s: float  # expected, all launches
    half_width: float | None  # expected relative half-width of the 95% interval of p50


def best_samples(components: Components) -> int:
    """Kalibera and Jones's samples per launch, within [MIN_SAMPLES, MAX_SAMPLES]."""
    best = np.sqrt(components.launch_cost_s / components.sample_cost_s
                   * components.within / components.between)
    return int(np.clip(round(best), MIN_SAMPLES, MAX_SAMPLES))


def expected_half_width(components: Components, launches: int, samples: int) -> float | None:
    """The relative half-width of the 95% interval of the median over launches."""
    if launches < 2:
        return None
    from scipy import stats  # a third of a second to import: only when a plan is made

    t = float(stats.t.ppf(0.975, launches - 1))
    return t * float(np.sqrt(components.figure_variance(launches, samples)))


def choose(cells: Sequence[Components], budget_s: float) -> list[Choice]:
    """For each cell (its components), launches and samples that fit `budget_s` together;
    BudgetError when not even MIN_LAUNCHES launches of every cell fit."""
    samples = [best_samples(c) for c in cells]
    block_s = sum(c.launch_s(s) for c, s in zip(cells, samples, strict=True))
    launches = min(int(budget_s // block_s), MAX_LAUNCHES) if block_s > 0 else MAX_LAUNCHES
    if launches < MIN_LAUNCHES:
        raise BudgetError(
            f"{budget_s:.3g} s is shorter than {MIN_LAUNCHES} launches of every cell: one launch "
            f"of each of the {len(cells)} cells takes about {block_s:.2g} s here, so the budget "
            f"needs at least {MIN_LAUNCHES * block_s:.2g} s")
    return [Choice(launches, s, launches * c.launch_s(s), expected_half_width(c, launches, s))
            for c, s in zip(cells, samples, strict=True)]
