"""Comparison of two runs, configuration by configuration, for `mwbench compare`.

Cells are matched on every factor but the repetition (runs.MATCH_FACTORS);
only ok cells are measured against each other. For each configuration the
point estimates are the median over repetitions of the per-repetition p50
and p99 (per call), and the ratio is new p50 / base p50. Its confidence
interval is a percentile bootstrap (bootstrap.py): over repetitions and
within them when both sides have at least two repetitions, over raw samples
otherwise, which then cannot see the drift between runs and says so.

The repetitions of one run are not independent of each other: on a shared
machine they tend to share its state. On the reference machine
(docs/performance.md) a rawtcp round trip sits near either 14 or 18 µs per
process, and in 33 of 52 one-second runs of 3 repetitions all three sat in
the same state (16 expected, were they independent; measured with the
machine loaded, whose run-to-run spread was the same as idle). The interval therefore
still understates the drift between runs, and the threshold must cover what
remains: idle reruns differed by up to 34%, and at a 5% threshold one pair
in six was flagged.

A configuration has regressed only when the slowdown is both large and
certain: ratio > 1 + threshold and the interval's lower bound above 1. An
improvement is the mirror image (ratio < 1 - threshold, upper bound below 1).
A large change whose interval includes 1 is "not significant"; anything
within the threshold is "no change". A configuration that succeeded in BASE
and failed in every repetition of NEW is "failed in new", and fails the gate
like a regression. The random generator of each
configuration is seeded from the seed and the configuration's factors, so a
comparison repeats exactly, whatever other cells the runs hold.
"""

import zlib
from dataclasses import dataclass, field

import numpy as np

from .bootstrap import REPLICATES, pooled_median, pooled_percentile, ratio_interval
from .runs import Configuration, FailedCell, RunCells

DEFAULT_SEED = 20240917
CLUSTER = "cluster bootstrap"
SAMPLES = "sample bootstrap"


class NoCommonCells(Exception):
    """The two runs share no configuration that succeeded in both."""


@dataclass(frozen=True)
class Settings:
    threshold: float = 0.05  # a fraction: 0.05 is 5%
    confidence: float = 0.95
    seed: int = DEFAULT_SEED
    replicates: int = REPLICATES


@dataclass
class Side:
    repetitions: int = 0  # ok repetitions
    p50_us: float | None = None
    p99_us: float | None = None
    failed: list[FailedCell] = field(default_factory=list)
    injected_delay_ns: int | None = None


@dataclass
class Row:
    factors: dict
    base: Side | None  # None: the configuration is not in that run
    new: Side | None
    verdict: str  # regression | improvement | no change | not significant
                  # | only in base | only in new | failed in new | failed in base
                  # | failed in both
    ratio: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    method: str | None = None


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
        return [row for row in self.rows if row.verdict == "regression"]

    @property
    def broken(self) -> list[Row]:
        """Configurations that worked in BASE and fail in every repetition of NEW: for a
        gate, worse than any slowdown."""
        return [row for row in self.rows if row.verdict == "failed in new"]


def verdict(ratio: float, low: float, high: float, threshold: float) -> str:
    if ratio > 1.0 + threshold:
        return "regression" if low > 1.0 else "not significant"
    if ratio < 1.0 - threshold:
        return "improvement" if high < 1.0 else "not significant"
    return "no change"


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
            why = "have no cells in common (cells match on every factor but the repetition)"
        raise NoCommonCells(f"{base.describe()} and {new.describe()} {why}")
    return comparison


def _row(key: tuple, base: Configuration | None, new: Configuration | None,
         settings: Settings) -> Row:
    factors = (base or new).factors
    row = Row(factors, _side(base), _side(new), verdict="")
    if base is None or new is None:
        row.verdict = "only in new" if base is None else "only in base"
        return row
    if not base.repetitions or not new.repetitions:
        row.verdict = ("failed in both" if not base.repetitions and not new.repetitions
                       else "failed in new" if base.repetitions else "failed in base")
        return row
    rng = np.random.default_rng([settings.seed, zlib.crc32(repr(key).encode())])
    row.ci_low, row.ci_high = ratio_interval(base.repetitions, new.repetitions,
                                             settings.confidence, rng, settings.replicates)
    row.ratio = row.new.p50_us / row.base.p50_us
    row.method = CLUSTER if min(row.base.repetitions, row.new.repetitions) >= 2 else SAMPLES
    row.verdict = verdict(row.ratio, row.ci_low, row.ci_high, settings.threshold)
    return row


def _side(configuration: Configuration | None) -> Side | None:
    if configuration is None:
        return None
    side = Side(repetitions=len(configuration.repetitions), failed=configuration.failed,
                injected_delay_ns=configuration.injected_delay_ns)
    if configuration.repetitions:
        side.p50_us = pooled_median(configuration.repetitions) / 1000.0
        side.p99_us = pooled_percentile(configuration.repetitions, 99) / 1000.0
    return side


def cautions(comparison: Comparison) -> list[str]:
    """What a reader must know before trusting the verdicts."""
    notes = []
    for role, run in (("BASE", comparison.base), ("NEW", comparison.new)):
        for delay, count in sorted(run.injected_delays().items()):
            notes.append(f"{role} run {run.run_id}: {count} configuration(s) slowed on purpose "
                         f"by {delay} ns per call (MWBENCH_INJECT_DELAY_NS): a test run, not a "
                         "measurement of the middleware")
    single = [row for row in comparison.compared if row.method == SAMPLES]
    if single:
        notes.append(f"{len(single)} configuration(s) have a single repetition in one run: their "
                     "interval covers only the sampling error within that run, not the drift "
                     "between runs (10-30% on a shared machine), so it is too narrow; set "
                     "repetitions: 3 or more in the spec")
    return notes
