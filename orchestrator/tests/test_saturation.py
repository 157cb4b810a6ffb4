"""The search of `mwbench saturate` (saturation.py) against probe functions whose knee is
known: doubling, then bisection, and the verdict of a probe from its launches."""

import pytest

from mwbench.response_bound import Bound
from mwbench.saturation import (
    MAX_PROBES,
    MAX_RATE,
    RESOLUTION,
    Verdict,
    judge_probe,
    search,
)

BOUND = Bound(100.0)  # at p99


def knee_at(capacity: float, tried: list[float] | None = None):
    """A middleware that keeps up to `capacity` calls per second, then queues."""
    def probe(rate: float) -> Verdict:
        if tried is not None:
            tried.append(rate)
        p99 = 50.0 if rate <= capacity else 50.0 * rate / capacity * 10
        fraction = 1.0 if rate <= capacity else capacity / rate
        return judge_probe(rate, [p99, p99, p99], [fraction] * 3, 0, BOUND)
    return probe


@pytest.mark.parametrize("capacity", [1000.0, 1499.0, 3000.0, 7777.0, 123_456.0])
def test_the_search_finds_the_knee_within_its_resolution(capacity):
    tried: list[float] = []
    outcome = search(knee_at(capacity, tried), low=1000.0)
    assert outcome.max_rate_per_s <= capacity
    assert outcome.max_rate_per_s >= capacity / (1 + RESOLUTION) / (1 + RESOLUTION)
    assert [probe.rate_per_s for probe in outcome.probes] == tried
    assert len(set(tried)) == len(tried)  # no rate is probed twice
    failed = min(p.rate_per_s for p in outcome.probes if not p.sustained)
    assert (failed - outcome.max_rate_per_s) / outcome.max_rate_per_s <= RESOLUTION or \
        failed == pytest.approx(outcome.max_rate_per_s * 2)


def test_it_doubles_from_low_then_bisects():
    tried: list[float] = []
    search(knee_at(5000.0, tried), low=1000.0)
    assert tried[:4] == [1000.0, 2000.0, 4000.0, 8000.0]
    assert tried[4] == 6000.0  # halfway between the last rate kept and the first lost
    assert all(4000.0 < rate < 8000.0 for rate in tried[4:])


def test_a_low_rate_already_beyond_the_bound_finds_none_and_says_why():
    outcome = search(knee_at(100.0), low=1000.0)
    assert outcome.max_rate_per_s is None
    assert outcome.reason.startswith("not even 1000/s is sustained: achieved 10.0% of the "
                                     "rate offered")
    assert len(outcome.probes) == 1


def test_high_caps_the_search():
    tried: list[float] = []
    outcome = search(knee_at(1e6, tried), low=1000.0, high=5000.0)
    assert tried == [1000.0, 2000.0, 4000.0, 5000.0]
    assert outcome.max_rate_per_s == 5000.0 and outcome.reason == \
        "sustained up to --high, 5000/s"


def test_a_middleware_that_never_saturates_stops_at_the_limit():
    outcome = search(knee_at(float("inf")), low=1e6)
    assert outcome.max_rate_per_s == MAX_RATE
    assert len(outcome.probes) <= MAX_PROBES


def test_the_search_is_deterministic_given_its_probe():
    assert [p.rate_per_s for p in search(knee_at(4321.0), low=500.0).probes] == \
        [p.rate_per_s for p in search(knee_at(4321.0), low=500.0).probes]


def test_a_probe_with_failed_launches_is_not_sustained():
    verdict = judge_probe(1000.0, [10.0, 10.0], [1.0, 1.0], 1, BOUND)
    assert not verdict.sustained and verdict.reason == "1 of 3 launches failed"
    assert not judge_probe(1000.0, [], [], 0, BOUND).sustained


def test_the_p99_of_a_probe_is_the_median_of_its_launches():
    verdict = judge_probe(1000.0, [20.0, 99.0, 500.0], [1.0, 0.99, 0.97], 0, BOUND)
    assert verdict.sustained and verdict.figure_us == 99.0 and verdict.achieved_fraction == 0.99
    beyond = judge_probe(1000.0, [20.0, 100.0, 500.0], [1.0, 1.0, 1.0], 0, BOUND)
    assert not beyond.sustained and beyond.reason == "p99 100.0 µs, not under 100 µs"


def test_an_achieved_rate_more_than_five_percent_short_is_not_sustained():
    assert judge_probe(1000.0, [10.0], [0.95], 0, BOUND).sustained
    short = judge_probe(1000.0, [10.0], [0.949], 0, BOUND)
    assert not short.sustained and short.reason.startswith("achieved 94.9% of the rate")


def test_the_reason_names_the_first_rate_lost_and_why():
    outcome = search(knee_at(3000.0), low=1000.0)
    failed = min(p.rate_per_s for p in outcome.probes if not p.sustained)
    assert outcome.reason == f"{failed:g}/s is not sustained: p99 520.0 µs, not under 100 µs"


@pytest.mark.parametrize(("percentile", "name", "key"), [
    (50.0, "p50", "p50_us"), (90.0, "p90", "p90_us"), (99.9, "p99.9", "p999_us")])
def test_a_bound_at_another_percentile_is_judged_and_named_at_it(percentile, name, key):
    bound = Bound(100.0, percentile)
    kept = judge_probe(1000.0, [20.0, 99.0, 500.0], [1.0, 1.0, 1.0], 0, bound)
    assert kept.sustained and kept.reason == f"{name} 99.0 µs, achieved 100.0%"
    lost = judge_probe(1000.0, [123.4, 123.4], [1.0, 1.0], 0, bound)
    assert not lost.sustained and lost.reason == f"{name} 123.4 µs, not under 100 µs"
    assert lost.record()[key] == 123.4 and "p99_us" not in lost.record()


def test_a_probe_at_p99_is_recorded_as_searches_before_the_percentile_were():
    record = judge_probe(1000.0, [10.0], [1.0], 0, BOUND).record()
    assert set(record) == {"rate_per_s", "sustained", "reason", "p99_us",
                           "achieved_fraction"}


def test_a_probe_that_lost_calls_is_not_sustained_however_fast_the_rest():
    verdict = judge_probe(1000.0, [10.0, 10.0, 10.0], [1.0, 1.0, 1.0], 0, BOUND, lost=21)
    assert not verdict.sustained and verdict.reason == "21 calls lost (never answered)"
    assert judge_probe(1000.0, [10.0, 10.0, 10.0], [1.0, 1.0, 1.0], 0, BOUND).sustained
