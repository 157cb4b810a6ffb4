"""The hierarchical bootstrap over launches, on data whose truth is known.

A two-level model stands in for a machine: each launch settles at a level
(log-normal around 1, of a set spread between launches) and its calls
scatter around that level (a skewed tail, the same in every launch). The
true figure is then known exactly, and an interval's coverage can be counted.
"""

import numpy as np
import pytest

from mwbench.launches import bootstrap
from mwbench.launches.estimate import ONE_LAUNCH, Estimate, paired_ratio, percentile, ratio

CALLS_SHAPE = 2.0  # the tail of one launch's calls: level * (1 + gamma(2, 0.1))
CALLS_SCALE = 0.1


def launches(rng, count: int, samples: int, between: float, level: float = 10.0,
             shared: np.ndarray | None = None) -> list[np.ndarray]:
    """`count` launches of `samples` calls; `shared`: a multiplier per launch that another
    configuration's launches of the same block also get (a slow stretch of the machine)."""
    levels = level * np.exp(rng.normal(0.0, between, count))
    if shared is not None:
        levels = levels * shared
    return [lv * (1.0 + rng.gamma(CALLS_SHAPE, CALLS_SCALE, samples)) for lv in levels]


def true_median(level: float = 10.0) -> float:
    """The median over launches of a launch's median, as launches and samples grow: the
    level's median (its log-normal is centred on `level`) times the calls' median."""
    calls = np.random.default_rng(0).gamma(CALLS_SHAPE, CALLS_SCALE, 4_000_000)
    return level * (1.0 + float(np.median(calls)))


@pytest.mark.parametrize("n, q", [(1, 50), (7, 50), (8, 50), (101, 50), (100, 99), (1000, 90),
                                  (5, 99.9), (2000, 1)])
def test_drawn_percentiles_have_the_distribution_of_resampled_percentiles(n, q):
    sample = np.sort(np.random.default_rng(n).lognormal(9, 0.3, n))
    drawn = bootstrap.percentile_replicates(sample, q, 20_000, np.random.default_rng(1))
    indices = np.random.default_rng(2).integers(0, n, size=(20_000, n))
    resampled = np.percentile(sample[indices], q, axis=1)
    # Rounded: both interpolate between the same two values, by different arithmetic.
    drawn, resampled = (np.round(values, 3) for values in (drawn, resampled))
    # Kolmogorov-Smirnov distance between the two; its sampling error is about 0.008.
    points = np.union1d(drawn, resampled)
    gap = np.abs(np.searchsorted(np.sort(drawn), points, side="right")
                 - np.searchsorted(np.sort(resampled), points, side="right")).max() / 20_000
    assert gap < 0.025


def test_the_figure_is_the_median_over_launches_of_each_launchs_percentile():
    data = [np.array([1.0, 2, 3]), np.array([10.0, 20, 30]), np.array([4.0, 5, 6])]
    assert bootstrap.launch_figure(data, 50) == 5.0
    assert percentile(data, 50).value == 5.0
    assert percentile(data, 100).value == 6.0


@pytest.mark.parametrize("count, between", [(5, 0.15), (8, 0.15), (12, 0.02), (20, 0.3)])
def test_the_interval_covers_the_true_median_at_its_nominal_rate(count, between):
    rng = np.random.default_rng(count * 100 + int(between * 100))
    truth = true_median()
    trials = 400
    covered = sum(percentile(launches(rng, count, 500, between), 50, key=trial,
                             replicates=1000).includes(truth) for trial in range(trials))
    # Nominal 95%: with 400 trials a count's standard error is 1.1 points; the median of
    # few launches takes few values, so its interval is a little short (93% at 5
    # launches) or long (98% at 8).
    assert 0.915 <= covered / trials <= 0.99


def test_three_launches_cover_less_than_the_nominal_rate_and_say_so():
    rng = np.random.default_rng(33)
    truth = true_median()
    estimates = [percentile(launches(rng, 3, 1000, 0.15), 50, key=t, replicates=1000)
                 for t in range(300)]
    coverage = sum(e.includes(truth) for e in estimates) / len(estimates)
    assert coverage < 0.9
    assert "narrower than it should be" in estimates[0].caution


def test_one_launch_has_no_interval():
    (only,) = launches(np.random.default_rng(1), 1, 1000, 0.1)
    estimate = percentile([only], 50)
    assert not estimate.has_interval and estimate.caution == ONE_LAUNCH
    assert not estimate.includes(estimate.value)
    assert estimate.text() == f"{estimate.value:,.2f} ({ONE_LAUNCH})"


def test_paired_ratios_cancel_what_both_launches_of_a_block_share():
    # A slow stretch that hits both configurations of a block alike: up to 2x, far more
    # than the 10% the cell costs over its baseline.
    rng = np.random.default_rng(5)
    stretch = np.exp(rng.normal(0.0, 0.3, 8))
    cell = launches(rng, 8, 2000, 0.01, level=11.0, shared=stretch)
    base = launches(rng, 8, 2000, 0.01, level=10.0, shared=stretch)
    paired = paired_ratio(dict(enumerate(cell)), dict(enumerate(base)))
    unpaired = ratio(cell, base)
    assert paired.low < 1.1 < paired.high
    assert paired.low > 1.0  # resolved: the cell costs more than its baseline
    assert (paired.high - paired.low) < (unpaired.high - unpaired.low) / 5


def test_paired_ratios_use_the_launches_both_have():
    rng = np.random.default_rng(6)
    cell = dict(enumerate(launches(rng, 4, 500, 0.05), start=1))
    base = dict(enumerate(launches(rng, 3, 500, 0.05), start=2))
    assert paired_ratio(cell, base).launches == 3  # launches 2, 3 and 4
    assert paired_ratio({1: cell[1]}, {2: base[2]}) is None
    single = paired_ratio({1: cell[1]}, {1: base[2]})
    assert single.launches == 1 and not single.has_interval


def test_a_fixed_key_gives_the_same_interval():
    data = launches(np.random.default_rng(7), 5, 500, 0.1)
    assert percentile(data, 50, key="a") == percentile(data, 50, key="a")
    assert percentile(data, 50, key="a") != percentile(data, 50, key="b")


def test_an_estimate_reads_as_text_and_flat_keys():
    estimate = Estimate(12.345, 5, 12.0, 12.8)
    assert estimate.text() == "12.35 [12.00–12.80]"
    assert estimate.includes(12.0) and not estimate.includes(11.99)
    assert estimate.scaled(2.0) == Estimate(24.69, 5, 24.0, 25.6)
    assert estimate.as_dict("p50") == {"p50": 12.345, "p50_low": 12.0, "p50_high": 12.8}
    assert estimate.caution is None
