"""A reported figure: a point estimate over launches, and its interval.

Every figure mwbench reports of a configuration (a percentile, a ratio to
the raw socket, a ratio of two configurations) is an `Estimate`: the median
over launches of each launch's figure, with the 95% interval of the
hierarchical bootstrap (bootstrap.py). A configuration of one launch has no
interval: the spread between launches cannot be seen from one, and the
sampling error within it is far narrower than that spread, so an interval
from its samples alone would claim a precision the figure does not have. It
says so instead, wherever it appears (`ONE_LAUNCH`).

With fewer than FULL_COVERAGE launches the interval is drawn from too few
values to reach its nominal coverage (the tests measure it on a two-level
model: about 80% for 3 launches, 93% for 5, 95-98% from 8); `caution` says
so.

The random generator of each figure is seeded from a fixed seed and what the
figure is of, so that a report or a comparison repeats exactly.
"""

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import bootstrap

CONFIDENCE = 0.95
DEFAULT_SEED = 20240917
FULL_COVERAGE = 5  # launches from which the interval reaches its nominal coverage
ONE_LAUNCH = "1 launch: no interval"


@dataclass(frozen=True)
class Estimate:
    value: float
    launches: int  # launches (or launch pairs) it was computed from
    low: float | None = None  # None: one launch, no interval
    high: float | None = None

    @property
    def has_interval(self) -> bool:
        return self.low is not None

    def includes(self, value: float) -> bool:
        """Whether the interval holds `value` (False without an interval)."""
        return self.has_interval and self.low <= value <= self.high

    @property
    def caution(self) -> str | None:
        """What a reader must know about the interval, or None."""
        if not self.has_interval:
            return ONE_LAUNCH
        if self.launches < FULL_COVERAGE:
            return f"{self.launches} launches: the interval is narrower than it should be"
        return None

    def text(self, digits: int = 2) -> str:
        """`12.34 [12.01–12.80]`, or `12.34 (1 launch: no interval)`."""
        value = f"{self.value:,.{digits}f}"
        if not self.has_interval:
            return f"{value} ({ONE_LAUNCH})"
        return f"{value} [{self.low:,.{digits}f}–{self.high:,.{digits}f}]"

    def scaled(self, factor: float) -> "Estimate":
        """The same estimate in another unit."""
        return Estimate(self.value * factor, self.launches,
                        None if self.low is None else self.low * factor,
                        None if self.high is None else self.high * factor)

    def as_dict(self, name: str) -> dict:
        """Flat keys for exports and JSON: NAME, NAME_low, NAME_high."""
        return {name: self.value, f"{name}_low": self.low, f"{name}_high": self.high}


def configuration_key(factors: dict) -> str:
    """A configuration's factors as one canonical text: the `key` of its figures, so that
    the summary, the report and the exports draw the same intervals."""
    return json.dumps(factors, sort_keys=True, default=str)


def generator(key: object, seed: int = DEFAULT_SEED) -> np.random.Generator:
    """The random generator of the figure of `key` (its configuration, its percentile)."""
    return np.random.default_rng([seed, zlib.crc32(repr(key).encode())])


def percentile(launches: Sequence[np.ndarray], q: float, key: object = None,
               confidence: float = CONFIDENCE,
               replicates: int = bootstrap.REPLICATES) -> Estimate:
    """The q-th percentile of a configuration measured by `launches` (per-call times)."""
    if not launches:
        raise ValueError("no launches to estimate from")
    value = bootstrap.launch_figure(launches, q)
    if len(launches) == 1:
        return Estimate(value, 1)
    replicas = bootstrap.hierarchical_replicates(bootstrap.ordered(launches), q, replicates,
                                                 generator((key, "percentile", q)))
    return Estimate(value, len(launches),
                    *bootstrap.interval(replicas, confidence, len(launches)))


def paired_ratio(numerators: dict[int, np.ndarray], denominators: dict[int, np.ndarray],
                 q: float = 50, key: object = None, confidence: float = CONFIDENCE,
                 replicates: int = bootstrap.REPLICATES) -> Estimate | None:
    """The ratio of two configurations' q-th percentiles, launch by launch: the launches
    of equal number (the same block of the run's schedule) are paired; None when they
    share no launch number."""
    common = sorted(set(numerators) & set(denominators))
    if not common:
        return None
    tops = [numerators[k] for k in common]
    bottoms = [denominators[k] for k in common]
    value = bootstrap.paired_ratio(tops, bottoms, q)
    if len(common) == 1:
        return Estimate(value, 1)
    replicas = bootstrap.paired_ratio_replicates(
        bootstrap.ordered(tops), bootstrap.ordered(bottoms), q, replicates,
        generator((key, "paired ratio", q)))
    return Estimate(value, len(common), *bootstrap.interval(replicas, confidence, len(common)))


def ratio(numerators: Sequence[np.ndarray], denominators: Sequence[np.ndarray],
          q: float = 50, key: object = None, confidence: float = CONFIDENCE,
          replicates: int = bootstrap.REPLICATES) -> Estimate:
    """The ratio of two configurations' q-th percentiles with no pairing of launches (two
    runs): each side's figure, and each side resampled on its own."""
    value = bootstrap.launch_figure(numerators, q) / bootstrap.launch_figure(denominators, q)
    launches = min(len(numerators), len(denominators))
    if launches == 1:
        return Estimate(value, 1)
    replicas = bootstrap.ratio_replicates(
        bootstrap.ordered(numerators), bootstrap.ordered(denominators), q, replicates,
        generator((key, "ratio", q)))
    return Estimate(value, launches, *bootstrap.interval(replicas, confidence, launches))
