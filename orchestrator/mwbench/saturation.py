"""The search of `mwbench saturate`: the highest offered rate a configuration sustains.

A rate is sustained when the response time at the bound's percentile (p99
unless the user chose p50, p90 or p99.9: response_bound.py; the median over
the probe's launches of each launch's figure) stays under the bound and the
rate achieved is within 5% of the rate offered (open_load.SUSTAINED): past
that, the queue grows for as long as the probe lasts and its tail measures
the probe's length, not the middleware. Every launch must have succeeded.

The search doubles the rate from `low` until a probe fails (or `high`, or
MAX_RATE, is reached), then bisects between the last rate sustained and the
first that was not until they are within RESOLUTION of each other. It is a
generator (`rates`) that yields the next rate and is sent the verdict, so
that `mwbench saturate` can step the searches of several configurations in
lockstep, every round's probes interleaved as a run's launches are; `search`
drives one with a probe function, and is what the tests call.
"""

import math
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np

from .open_load import SUSTAINED
from .response_bound import DEFAULT_PERCENTILE, STAT_KEYS, Bound

RESOLUTION = 0.05  # the search stops when the bracket is this narrow, relatively
MAX_RATE = 1e8  # calls per second: no middleware here comes near; doubling stops there
MAX_PROBES = 40  # a guard: doubling from 1/s to MAX_RATE and bisecting take ~35


@dataclass(frozen=True)
class Verdict:
    """One probe: a rate offered for the launches of one configuration."""

    rate_per_s: float
    sustained: bool
    reason: str  # why not, or what it met
    figure_us: float | None = None  # the median of the launches' figure at the percentile
    achieved_fraction: float | None = None  # the median of the launches' achieved / offered
    percentile: float = DEFAULT_PERCENTILE  # the bound's

    def record(self) -> dict:
        """As stored: the figure under its statistic's key (p90_us, p99_us, ...), so that a
        search stored before the percentile could be chosen (p99_us) reads the same."""
        return {"rate_per_s": self.rate_per_s, "sustained": self.sustained,
                "reason": self.reason, STAT_KEYS[self.percentile]: self.figure_us,
                "achieved_fraction": self.achieved_fraction}


@dataclass
class Outcome:
    """What a search found: the highest rate sustained (None: not even the lowest)."""

    max_rate_per_s: float | None
    reason: str
    probes: list[Verdict] = field(default_factory=list)


def judge_probe(rate_per_s: float, figures_us: list[float], fractions: list[float],
                failed: int, bound: Bound, lost: int = 0) -> Verdict:
    """The verdict of a probe from its launches: each ok launch's figure (µs) at the bound's
    percentile and achieved / offered, the count of launches that failed, and the calls
    their launches lost (never answered: a middleware that drops calls at a rate does not
    sustain it, however fast it answers the others)."""
    if failed or not figures_us:
        return Verdict(rate_per_s, False, f"{failed} of {failed + len(figures_us)} launches "
                                          "failed", percentile=bound.percentile)
    figure = float(np.median(figures_us))
    fraction = float(np.median(fractions))
    if lost:
        return Verdict(rate_per_s, False, f"{lost:,} calls lost (never answered)", figure,
                       fraction, bound.percentile)
    if fraction < SUSTAINED:
        return Verdict(rate_per_s, False, f"achieved {fraction:.1%} of the rate offered "
                                          f"(under {SUSTAINED:.0%})", figure, fraction,
                       bound.percentile)
    if figure >= bound.us:
        return Verdict(rate_per_s, False, f"{bound.name} {figure:,.1f} µs, not under "
                                          f"{bound.us:g} µs", figure, fraction,
                       bound.percentile)
    return Verdict(rate_per_s, True, f"{bound.name} {figure:,.1f} µs, achieved {fraction:.1%}",
                   figure, fraction, bound.percentile)


def rates(low: float, high: float | None = None, resolution: float = RESOLUTION
          ) -> Generator[float, Verdict, Outcome]:
    """The rates to probe, one at a time, each sent its verdict; returns the outcome."""
    top = MAX_RATE if high is None else high
    probes = []

    def probe(rate: float) -> Generator[float, Verdict, Verdict]:
        verdict = yield rate
        probes.append(verdict)
        return verdict

    verdict = yield from probe(low)
    if not verdict.sustained:
        return Outcome(None, f"not even {low:g}/s is sustained: {verdict.reason}", probes)
    sustained, failed, why = low, None, ""  # why: the reason of the lowest rate that failed
    while failed is None:
        if sustained >= top:
            limit = "--high" if high is not None else "mwbench's limit"
            return Outcome(sustained, f"sustained up to {limit}, {top:g}/s", probes)
        rate = min(sustained * 2, top)
        verdict = yield from probe(rate)
        if verdict.sustained:
            sustained = rate
        else:
            failed, why = rate, verdict.reason
    while (failed - sustained) / sustained > resolution and len(probes) < MAX_PROBES:
        rate = _round((sustained + failed) / 2)
        if not sustained < rate < failed:
            break
        verdict = yield from probe(rate)
        if verdict.sustained:
            sustained = rate
        else:
            failed, why = rate, verdict.reason
    return Outcome(sustained, f"{failed:g}/s is not sustained: {why}", probes)


def search(probe: Callable[[float], Verdict], low: float, high: float | None = None,
           resolution: float = RESOLUTION) -> Outcome:
    """The outcome of one configuration's search, `probe` judging each rate."""
    steps = rates(low, high, resolution)
    try:
        rate = next(steps)
        while True:
            rate = steps.send(probe(rate))
    except StopIteration as finished:
        return finished.value


def _round(rate: float) -> float:
    """A rate with three significant digits: a level a reader can type again."""
    digits = 2 - math.floor(math.log10(rate))
    return round(rate, digits)
