"""Comparison of two runs, configuration by configuration, for `mwbench compare`.

Cells are matched on every factor but the launch (runs.MATCH_FACTORS); only
ok launches are measured against each other. For each configuration a side's
figures are the median over its launches of each launch's p50 and p99 (per
call), and the ratio is new p50 / base p50.

The test is at the level of launches: the interval of the ratio is the
hierarchical bootstrap's (launches/bootstrap.py), which resamples each
side's launches and, within each drawn launch, its samples. Launches are the
unit because a process pair settles near one of a few levels and stays
there, and the machine passes through slow stretches that hit every process
alike: samples of one launch are not independent evidence about the next,
and an interval from samples alone calls every such drift a change.
Launches spread over the run in randomised blocks (launches/schedule.py), so
the spread between them also holds the machine's slow stretches.

Why a bootstrap interval of the ratio rather than a rank test on launch
medians (Google Benchmark's compare.py runs Mann-Whitney U): the gate's
question is about size ("slower by more than 10%?"), which an interval of
the ratio answers and a p-value does not; the same replicates give the
smallest change the runs could have detected; and with the 5 launches a run
usually has per side, the U test's smallest two-sided p is 0.008 and its
power against a 10% shift low. The tests measure this rule's false-alarm and
detection rates on runs drawn from a two-level model.

Verdicts, from the ratio r, its interval [low, high] and the threshold t:

- regression: r > 1 + t and low > 1 (large and certain); improvement: the
  mirror image;
- no change: |r - 1| <= t, and the runs could have seen a change of t (the
  smallest detectable change is at most t, or the interval excludes 1);
- not resolvable: anything else. The runs cannot tell a change of the
  threshold's size from the spread between launches; the row says how many
  launches per side would (`needs`), from the launch-level standard error,
  which falls as one over the square root of the launches.

The smallest detectable change is the change a test at this confidence finds
with 80% power: exp((z(1 - alpha/2) + z(0.8)) * se) - 1, where se is the
standard deviation of the log of the ratio's replicates. A configuration with
one launch on a side has no spread between launches to measure, so it is
not resolvable (`ONE_LAUNCH_NEEDS` launches is where the intervals reach
their nominal coverage). A configuration that succeeded in BASE and failed
in every launch of NEW is "failed in new", and fails the gate like a
regression. The random generator of each configuration is seeded from the
seed and the configuration's factors, so a comparison repeats exactly.
"""

import math
import zlib
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ..launches import bootstrap
from ..launches.estimate import DEFAULT_SEED, FULL_COVERAGE
from ..open_load import SUSTAINED
from .runs import Configuration, FailedCell, RunCells

REGRESSION = "regression"
IMPROVEMENT = "improvement"
NO_CHANGE = "no change"
NOT_RESOLVABLE = "not resolvable"
POWER = 0.8
ONE_LAUNCH_NEEDS = FULL_COVERAGE


class NoCommonCells(Exception):
    """The two runs share no configuration that succeeded in both."""


@dataclass(frozen=True)
class Settings:
    threshold: float = 0.05  # a fraction: 0.05 is 5%
    confidence: float = 0.95
    seed: int = DEFAULT_SEED
    replicates: int = bootstrap.REPLICATES


@dataclass
class Side:
    launches: int = 0  # ok launches
    p50_us: float | None = None
    p99_us: float | None = None
    failed: list[FailedCell] = field(default_factory=list)
    injected_delay_ns: int | None = None


@dataclass
class Row:
    factors: dict
    base: Side | None  # None: the configuration is not in that run
    new: Side | None
    verdict: str  # regression | improvement | no change | not resolvable
                  # | only in base | only in new | failed in new | failed in base
                  # | failed in both
    ratio: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    detectable: float | None = None  # smallest change detectable, a fraction (0.1: 10%)
    needs: int | None = None  # launches per side that would resolve the threshold


@dataclass
class Comparison:
    base: RunCells
    new: RunCells
    settings: Settings
    rows: list[Row]

    @property
    def compared(self) -> list[Row]:
        return [row for row in self.rows if row.ratio is not None]

    @property
    def regressions(self) -> list[Row]:
        return [row for row in self.rows if row.verdict == REGRESSION]

    @property
    def unresolved(self) -> list[Row]:
        return [row for row in self.rows if row.verdict == NOT_RESOLVABLE]

    @property
    def broken(self) -> list[Row]:
        """Configurations that worked in BASE and fail in every launch of NEW: for a
        gate, worse than any slowdown."""
        return [row for row in self.rows if row.verdict == "failed in new"]


def verdict(ratio: float, low: float | None, high: float | None, threshold: float) -> str:
    """A change beyond the threshold whose interval excludes 1; no change when the whole
    interval lies within the threshold (an equivalence test: a change may be real and still
    too small to matter); anything else the two runs cannot resolve."""
    if low is None or high is None:
        return NOT_RESOLVABLE
    if ratio > 1.0 + threshold and low > 1.0:
        return REGRESSION
    if ratio < 1.0 - threshold and high < 1.0:
        return IMPROVEMENT
    slack = 1e-12  # 1.0 + 0.1 is a hair above 1.1
    if low >= 1.0 - threshold - slack and high <= 1.0 + threshold + slack:
        return NO_CHANGE
    return NOT_RESOLVABLE


def smallest_detectable(replicates: np.ndarray, confidence: float) -> float:
    """The change (a fraction) found with POWER at this confidence, from the ratio's
    bootstrap replicates."""
    spread = float(np.std(np.log(replicates), ddof=1))
    z = NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0) + NormalDist().inv_cdf(POWER)
    return math.exp(z * spread) - 1.0


def launches_needed(launches: int, detectable: float, threshold: float) -> int:
    """Launches per side at which the smallest detectable change falls to the threshold."""
    if threshold <= 0:
        return launches + 1
    scale = math.log1p(detectable) / math.log1p(threshold)
    return max(launches + 1, math.ceil(launches * scale * scale))


def compare(base: RunCells, new: RunCells, settings: Settings = Settings()) -> Comparison:
    """Match the configurations of two runs and judge each; NoCommonCells if none matches."""
    keys = list(base.configurations)
    keys += [key for key in new.configurations if key not in base.configurations]
    rows = [_row(key, base.configurations.get(key), new.configurations.get(key), settings)
            for key in keys]
    comparison = Comparison(base, new, settings, rows)
    if not comparison.compared:
        shared = sum(1 for key in base.configurations if key in new.configurations)
        if shared:
            why = f"share {shared} configurations, but none succeeded in both"
        else:
            why = "have no cells in common (cells match on every factor but the launch)"
        raise NoCommonCells(f"{base.describe()} and {new.describe()} {why}")
    return comparison


def _row(key: tuple, base: Configuration | None, new: Configuration | None,
         settings: Settings) -> Row:
    factors = (base or new).factors
    row = Row(factors, _side(base), _side(new), verdict="")
    if base is None or new is None:
        row.verdict = "only in new" if base is None else "only in base"
        return row
    if not base.launches or not new.launches:
        row.verdict = ("failed in both" if not base.launches and not new.launches
                       else "failed in new" if base.launches else "failed in base")
        return row
    row.ratio = row.new.p50_us / row.base.p50_us
    fewest = min(len(base.launches), len(new.launches))
    if fewest >= 2:
        rng = np.random.default_rng([settings.seed, zlib.crc32(repr(key).encode())])
        replicates = bootstrap.ratio_replicates(
            bootstrap.ordered(new.launches.values()), bootstrap.ordered(base.launches.values()),
            50, settings.replicates, rng)
        row.ci_low, row.ci_high = bootstrap.interval(replicates, settings.confidence, fewest)
        row.detectable = smallest_detectable(replicates, settings.confidence)
    row.verdict = verdict(row.ratio, row.ci_low, row.ci_high, settings.threshold)
    if row.verdict == NOT_RESOLVABLE:
        row.needs = ONE_LAUNCH_NEEDS if row.detectable is None else launches_needed(
            fewest, row.detectable, settings.threshold)
    return row


def _side(configuration: Configuration | None) -> Side | None:
    if configuration is None:
        return None
    side = Side(launches=len(configuration.launches), failed=configuration.failed,
                injected_delay_ns=configuration.injected_delay_ns)
    if configuration.launches:
        launches = list(configuration.launches.values())
        side.p50_us = bootstrap.launch_figure(launches, 50) / 1000.0
        side.p99_us = bootstrap.launch_figure(launches, 99) / 1000.0
    return side


def cautions(comparison: Comparison) -> list[str]:
    """What a reader must know before trusting the verdicts."""
    notes = []
    for role, run in (("BASE", comparison.base), ("NEW", comparison.new)):
        for delay, count in sorted(run.injected_delays().items()):
            notes.append(f"{role} run {run.run_id}: {count} configuration(s) slowed on purpose "
                         f"by {delay} ns per call (MWBENCH_INJECT_DELAY_NS): a test run, not a "
                         "measurement of the middleware")
        if behind := run.behind():
            notes.append(f"{role} run {run.run_id}: {behind} open-loop configuration(s) "
                         f"achieved less than {SUSTAINED:.0%} of the rate offered: their "
                         "response times are those of a queue that grew for the whole launch, "
                         "so they change with its length as much as with the middleware")
    single = [row for row in comparison.compared if row.detectable is None]
    if single:
        notes.append(f"{len(single)} configuration(s) have a single launch in one run: the "
                     "spread between launches (a process pair settles near one of a few levels) "
                     "cannot be measured from one, so no change can be resolved; set "
                     f"launches: {ONE_LAUNCH_NEEDS} or more in the spec")
    few = [row for row in comparison.compared
           if row.detectable is not None and min(row.base.launches, row.new.launches)
           < FULL_COVERAGE]
    if few:
        notes.append(f"{len(few)} configuration(s) have fewer than {FULL_COVERAGE} launches on "
                     "a side: their interval is narrower than its confidence says")
    return notes
