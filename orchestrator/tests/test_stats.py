"""Statistics of a cell against values computed by hand and by numpy."""

import numpy as np
import pytest

from mwbench.stats import summarize


def test_known_data_gives_hand_computed_percentiles():
    # 1..100 µs in ns, made in 1 ms of wall time.
    per_call_ns = np.arange(1, 101, dtype=np.float64) * 1000
    stats = summarize(per_call_ns, calls=100, measured_wall_ns=1_000_000)
    assert stats.samples == 100
    assert stats.min_us == 1.0 and stats.max_us == 100.0
    assert stats.p50_us == pytest.approx(50.5)  # linear interpolation between ranks 50 and 51
    assert stats.p25_us == pytest.approx(25.75)
    assert stats.p99_us == pytest.approx(99.01)
    assert stats.mean_us == pytest.approx(50.5)
    assert stats.throughput_per_s == pytest.approx(100_000)


def test_matches_numpy_on_random_data():
    rng = np.random.default_rng(7)
    per_call_ns = rng.lognormal(mean=8.5, sigma=0.4, size=20_000)
    stats = summarize(per_call_ns, calls=20_000, measured_wall_ns=int(per_call_ns.sum()))
    us = per_call_ns / 1000
    assert stats.p999_us == pytest.approx(np.percentile(us, 99.9))
    assert stats.p90_us == pytest.approx(np.percentile(us, 90))
    assert stats.std_us == pytest.approx(np.std(us, ddof=1))
    assert stats.throughput_per_s == pytest.approx(20_000 / (per_call_ns.sum() / 1e9), rel=1e-6)


def test_no_samples_is_an_error():
    with pytest.raises(ValueError):
        summarize(np.empty(0), calls=0, measured_wall_ns=0)


def test_unknown_wall_time_gives_no_throughput():
    assert summarize(np.array([1000.0]), calls=1, measured_wall_ns=0).throughput_per_s is None
