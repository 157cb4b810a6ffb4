"""Effects of a 2^k r factorial design, after Jain (The Art of Computer Systems
Performance Analysis, chapters 17 and 18).

Each of k factors (2 or 3) has a low level (coded -1: the first value the spec
lists) and a high level (+1). The 2^k cells are in standard order: cell i has
factor j at its high level when bit j of i is set, so the first factor changes
fastest. Each cell holds r observations, one per launch.

The estimates are in contrast form: an effect is (1 / 2^(k-1)) x the sum over
cells of its sign x the cell mean. For a main effect that is the mean at the
high level minus the mean at the low level; for the interaction of A and B it
is half the difference between A's effect at B high and A's effect at B low.
Jain's q_j is half of each.

Allocation of variation: the total sum of squares around the grand mean,
SST = sum (y - grand mean)^2, splits exactly into 2^k r q_j^2 per effect plus
the error SSE = sum (y - cell mean)^2, so the shares (each over SST) add up to
100%. With one launch there is no error term and no interval: nothing
tells an effect from the noise of repeating it.

Intervals are percentile bootstraps over launches, resampled independently
within each cell (scipy.stats.bootstrap with one sample per cell): the
launches, not the calls inside one, are the independent units, since the
calls of one process share its state (docs/performance.md on drift). With few
launches the interval is too narrow (2 give each cell only 3 distinct
resampled means): an effect is significant here when its interval excludes 0.
"""

import itertools
from dataclasses import dataclass

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
REPLICATES = 2000
SEED = 20240917  # a fixed seed: the same stored run gives the same report


def excludes_zero(interval: tuple[float, float] | None) -> bool | None:
    """Whether an effect's interval excludes 0 (it is significant); None without one."""
    if interval is None:
        return None
    low, high = interval
    return low > 0 or high < 0


@dataclass(frozen=True)
class Effect:
    factors: tuple[int, ...]  # the factors it involves, by position: (0,) is A, (0, 1) is AB
    estimate: float  # contrast form (see the module's docstring)
    share: float | None  # of the total variation, 0..1; None when nothing varied at all
    interval: tuple[float, float] | None  # bootstrap, at CONFIDENCE; None with one launch

    @property
    def is_interaction(self) -> bool:
        return len(self.factors) > 1

    @property
    def significant(self) -> bool | None:
        return excludes_zero(self.interval)


@dataclass(frozen=True)
class Analysis:
    cell_means: np.ndarray  # one per cell, in standard order
    grand_mean: float
    launches: int
    effects: list[Effect]  # main effects first, then interactions by order
    error_share: float | None  # share of the variation left to the launches; None if r = 1


def effect_terms(k: int) -> list[tuple[int, ...]]:
    """A, B, C, then AB, AC, BC, then ABC: every non-empty subset of k factors."""
    return [terms for order in range(1, k + 1)
            for terms in itertools.combinations(range(k), order)]


def sign_table(k: int) -> np.ndarray:
    """Signs (2^k cells x effects) of each effect's contrast, cells in standard order."""
    levels = np.array([[1.0 if cell >> j & 1 else -1.0 for j in range(k)]
                       for cell in range(2 ** k)])
    return np.column_stack([levels[:, list(terms)].prod(axis=1) for terms in effect_terms(k)])


def analyse(observations, confidence: float = CONFIDENCE, replicates: int = REPLICATES,
            seed: int = SEED) -> Analysis:
    """The effects of `observations`: 2^k rows (cells, standard order) of r launches."""
    y = np.asarray(observations, dtype=float)
    if y.ndim != 2 or y.shape[1] < 1:
        raise ValueError("observations are 2^k cells of r >= 1 launches each")
    cells, r = y.shape
    k = cells.bit_length() - 1
    if cells != 2 ** k or not 2 <= k <= 3:
        raise ValueError(f"a 2^k design with k of 2 or 3 has 4 or 8 cells, not {cells}")
    signs = sign_table(k)
    means = y.mean(axis=1)
    grand = float(y.mean())
    estimates = _contrasts(signs, means)
    q = estimates / 2
    total = float(((y - grand) ** 2).sum())
    error = float(((y - means[:, None]) ** 2).sum())
    # Shares are of SST; an SST of exactly zero (every observation equal) has none.
    shares = cells * r * q ** 2 / total if total > 0 else [None] * len(q)
    intervals = _intervals(y, signs, confidence, replicates, seed) if r > 1 else None
    effects = [Effect(terms, float(estimates[i]),
                      None if shares[i] is None else float(shares[i]),
                      None if intervals is None else intervals[i])
               for i, terms in enumerate(effect_terms(k))]
    return Analysis(means, grand, r, effects,
                    error / total if r > 1 and total > 0 else (0.0 if r > 1 else None))


def _contrasts(signs: np.ndarray, means: np.ndarray) -> np.ndarray:
    """Every effect from the cell means (cells first; any batch axes after)."""
    return np.tensordot(signs.T, means, axes=1) / (signs.shape[0] / 2)


def _intervals(y: np.ndarray, signs: np.ndarray, confidence: float, replicates: int,
               seed: int) -> list[tuple[float, float]]:
    def contrasts(*cells, axis=-1):
        # One resample of every cell at once: means of shape (cells, batch), computed as
        # the point estimate is, so that an interval of zero width holds it exactly.
        return _contrasts(signs, np.stack([cell.mean(axis=axis) for cell in cells], axis=0))

    result = stats.bootstrap(tuple(y), contrasts, vectorized=True, paired=False,
                             confidence_level=confidence, n_resamples=replicates,
                             method="percentile", rng=np.random.default_rng(seed))
    low, high = result.confidence_interval
    return [(float(a), float(b)) for a, b in zip(np.atleast_1d(low), np.atleast_1d(high),
                                                  strict=True)]
