"""Effects of a full factorial design with replications, after Jain (The Art of
Computer Systems Performance Analysis, chapter 22 for two factors, 23 for k).

Factors of any number of levels (orb: omniorb, jacorb, glassfish x layer:
object, component is a 3x2); the 2^k r analysis of factorial_design.py
stays the reading of designs whose factors all have two levels. The
observations are an array indexed [level of factor 1, ..., level of factor k,
launch]: r launches in every cell (a balanced design).

The model is y = mu + alpha_i + beta_j + gamma_ij + ... + e: mu the grand
mean, alpha_i the effect of factor A's level i (the mean at that level less
mu), gamma_ij the interaction of A's level i and B's level j (the cell mean
less mu, alpha_i and beta_j), and so on for every subset of the factors.
Each term's effects sum to 0 along each of its factors. A term's effects
come from the means over the factors outside it, by inclusion and
exclusion: for a term T, sum over the subsets S of T of (-1)^(|T|-|S|)
times the mean over the factors outside S (Jain's formulas, for any k).

Allocation of variation: SST = sum (y - mu)^2 splits exactly into one sum of
squares per term, r x (the cells of the design) x the mean square of its
effects, and SSE = sum (y - cell mean)^2. Jain's analysis of variance tests
each term with F = (SS / df) / (SSE / df_e), df the product of (levels - 1)
over its factors and df_e = cells x (r - 1); its p-value is
scipy.stats.f.sf. With one launch there is no error term: no F, no interval.

Intervals are percentile bootstraps over launches resampled within each
cell (scipy.stats.bootstrap, one sample per cell), as in
factorial_design.py: the launches, not the calls of one, are the
independent units. An effect is significant when its interval excludes 0.
"""

import itertools
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .factorial_design import CONFIDENCE, REPLICATES, SEED, excludes_zero
from .spec_factorial import MAX_LEVELS, MIN_LEVELS


@dataclass(frozen=True)
class LevelEffect:
    levels: tuple[int, ...]  # the level of each of the term's factors, by position
    estimate: float
    interval: tuple[float, float] | None  # bootstrap, at CONFIDENCE; None with one launch

    @property
    def significant(self) -> bool | None:
        return excludes_zero(self.interval)


@dataclass(frozen=True)
class Term:
    factors: tuple[int, ...]  # (0,) is A's main effects, (0, 1) the interaction AB
    effects: list[LevelEffect]  # every combination of its factors' levels, last fastest
    share: float | None  # of SST, 0..1; None when nothing varied at all
    degrees_of_freedom: int
    p_value: float | None  # Jain's F test; None without an error term or with SSE 0

    @property
    def is_interaction(self) -> bool:
        return len(self.factors) > 1


@dataclass(frozen=True)
class Analysis:
    cell_means: np.ndarray  # indexed by the level of each factor
    grand_mean: float
    launches: int
    terms: list[Term]  # main effects first, then interactions by order
    error_share: float | None  # None with one launch


def terms_of(k: int) -> list[tuple[int, ...]]:
    """A, B, C, then AB, AC, BC, then ABC: every non-empty subset of k factors."""
    return [term for order in range(1, k + 1) for term in itertools.combinations(range(k), order)]


def effects(means: np.ndarray, term: tuple[int, ...], k: int) -> np.ndarray:
    """The effects of `term` from cell means of shape (levels..., batch...): an array of
    shape (levels of the term's factors..., batch...), by inclusion and exclusion."""
    total = 0.0
    for order in range(len(term) + 1):
        for kept in itertools.combinations(term, order):
            outside = tuple(axis for axis in range(k) if axis not in kept)
            sign = (-1) ** (len(term) - order)
            # The mean over the factors outside `kept`, broadcast back over `term`'s axes.
            marginal = means.mean(axis=outside, keepdims=True)
            total = total + sign * marginal
    # Every factor outside the term is constant in `total`: take its first level.
    index = tuple(slice(None) if axis in term else 0 for axis in range(k))
    return total[index]


def analyse(observations, confidence: float = CONFIDENCE, replicates: int = REPLICATES,
            seed: int = SEED) -> Analysis:
    """Every term's effects and shares of `observations` (levels..., launches)."""
    y = np.asarray(observations, dtype=float)
    k = y.ndim - 1
    if k < 1 or y.shape[-1] < 1 or any(not MIN_LEVELS <= n <= MAX_LEVELS for n in y.shape[:-1]):
        raise ValueError(f"observations are indexed by the level of each factor "
                         f"({MIN_LEVELS} to {MAX_LEVELS} levels) and then the launch")
    r = y.shape[-1]
    means = y.mean(axis=-1)
    cells = means.size
    grand = float(y.mean())
    total = float(((y - grand) ** 2).sum())
    error = float(((y - means[..., None]) ** 2).sum())
    error_df = cells * (r - 1)
    intervals = _intervals(y, confidence, replicates, seed) if r > 1 else None
    terms = []
    for number, term in enumerate(terms_of(k)):
        estimates = effects(means, term, k)
        squares = r * cells * float((estimates ** 2).mean())
        df = int(np.prod([y.shape[axis] - 1 for axis in term]))
        p = None
        if r > 1 and error > 0:
            p = float(stats.f.sf((squares / df) / (error / error_df), df, error_df))
        found = [LevelEffect(levels, float(estimates[levels]),
                             None if intervals is None else intervals[number][levels])
                 for levels in np.ndindex(estimates.shape)]
        terms.append(Term(term, found, squares / total if total > 0 else None, df, p))
    error_share = (error / total if total > 0 else 0.0) if r > 1 else None
    return Analysis(means, grand, r, terms, error_share)


def _intervals(y: np.ndarray, confidence: float, replicates: int, seed: int) -> list[dict]:
    """Per term, {levels: (low, high)}: one bootstrap of every effect at once."""
    k = y.ndim - 1
    shape = y.shape[:-1]
    terms = terms_of(k)

    def every_effect(*cells, axis=-1):
        # One resample of every cell at once: the cell means (levels..., batch), then each
        # term's effects flattened, computed as the point estimates are.
        means = np.stack([cell.mean(axis=axis) for cell in cells], axis=0)
        means = means.reshape(*shape, *means.shape[1:])
        return np.concatenate([effects(means, term, k).reshape(-1, *means.shape[k:])
                               for term in terms], axis=0)

    result = stats.bootstrap(tuple(y.reshape(-1, y.shape[-1])), every_effect, vectorized=True,
                             paired=False, confidence_level=confidence,
                             n_resamples=replicates, method="percentile",
                             rng=np.random.default_rng(seed))
    low, high = (np.atleast_1d(bound) for bound in result.confidence_interval)
    found, start = [], 0
    for term in terms:
        term_shape = tuple(shape[axis] for axis in term)
        count = int(np.prod(term_shape))
        pairs = {levels: (float(low[start + i]), float(high[start + i]))
                 for i, levels in enumerate(np.ndindex(term_shape))}
        found.append(pairs)
        start += count
    return found
