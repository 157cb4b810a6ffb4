"""The raw-socket baseline: which configuration a middleware configuration is read
against, and the ratio taken launch by launch."""

import numpy as np
import pytest

from mwbench.baseline import baseline_key, ratios_to_baseline


def factors(driver, transport, mode="remote", placement="same-cpu"):
    return dict(driver=driver, transport=transport, mode=mode, operation="roundtrip",
                payload_bytes=0, placement=placement, idle_hold=True, priority=0)


def median_ratios(cells: list[tuple[dict, float | None]]) -> list[float | None]:
    """The ratios of configurations measured by one launch of one call each (None: no
    ok launch)."""
    ratios = ratios_to_baseline([(f, {} if m is None else {1: np.array([m])})
                                 for f, m in cells])
    return [None if r is None else round(r.value, 9) for r in ratios]


def test_unix_socket_transports_share_one_family():
    assert baseline_key(factors("omniorb", "unix")) == baseline_key(factors("rawtcp", "uds"))
    assert baseline_key(factors("omniorb", "tcp")) != baseline_key(factors("rawtcp", "uds"))
    # UDP and shared memory are read against the raw socket of the same reach.
    assert baseline_key(factors("cyclonedds", "udp")) == baseline_key(factors("rawtcp", "tcp"))
    assert baseline_key(factors("iceoryx", "shm")) == baseline_key(factors("rawtcp", "uds"))


def test_ratios_match_transport_family_and_placement():
    cells = [
        (factors("rawtcp", "tcp"), 10.0),
        (factors("rawtcp", "uds"), 8.0),
        (factors("rawtcp", "tcp", placement="cross-cpu"), 20.0),
        (factors("omniorb", "tcp"), 12.0),
        (factors("omniorb", "unix"), 10.0),
        (factors("omniorb", "tcp", placement="cross-cpu"), 30.0),
        (factors("omniorb", "inproc", mode="collocated"), 0.08),
    ]
    assert median_ratios(cells) == [None, None, None, 1.2, 1.25, 1.5, None]


def test_the_ratio_pairs_launches_of_one_block_and_has_an_interval():
    rng = np.random.default_rng(1)
    stretch = {k: float(np.exp(rng.normal(0, 0.3))) for k in range(1, 9)}  # hits both ends
    raw = {k: 10.0 * s * rng.gamma(20, 0.05, 500) for k, s in stretch.items()}
    orb = {k: 12.0 * s * rng.gamma(20, 0.05, 500) for k, s in stretch.items()
           if k != 8}  # its 8th launch failed: 7 pairs
    _, ratio = ratios_to_baseline([(factors("rawtcp", "tcp"), raw),
                                   (factors("omniorb", "tcp"), orb)])
    assert ratio.launches == 7
    assert ratio.low < 1.2 < ratio.high and ratio.high - ratio.low < 0.1  # the stretch: 30%
    assert ratio.value == pytest.approx(1.2, rel=0.02)


def test_failed_baseline_gives_no_ratio():
    cells = [(factors("rawtcp", "tcp"), None), (factors("omniorb", "tcp"), 12.0)]
    assert median_ratios(cells) == [None, None]


def test_threads_and_background_are_conditions_of_the_baseline():
    def cell(driver, threads=None, background=None, experiment="e"):
        return {**factors(driver, "tcp"), "threads": threads, "background": background,
                "experiment": experiment}
    cells = [
        (cell("rawtcp", threads=8), 100.0),
        (cell("rawtcp", background="cpu:2"), 40.0),
        (cell("rawtcp", threads=1), 10.0),
        (cell("omniorb"), 12.0),               # unset threads = 1, unset background = none
        (cell("omniorb", threads=8), 120.0),
        (cell("omniorb", background="cpu:2"), 48.0),
    ]
    assert median_ratios(cells)[3:] == [1.2, 1.2, 1.2]


def test_a_baseline_of_the_same_experiment_is_preferred():
    def cell(driver, experiment):
        return {**factors(driver, "tcp"), "experiment": experiment}
    cells = [(cell("rawtcp", "simple"), 10.0), (cell("rawtcp", "sweep"), 20.0),
             (cell("omniorb", "sweep"), 24.0), (cell("omniorb", "other"), 12.0)]
    assert median_ratios(cells)[2:] == [1.2, 1.2]


def test_a_fanout_is_read_against_the_baseline_with_the_same_subscribers():
    def fanout(driver, transport, subscribers, where, median):
        return ({"experiment": "f", "driver": driver, "mode": "remote", "transport": transport,
                 "operation": "fanout", "payload_bytes": 0, "subscribers": subscribers,
                 "subscriber_processes": where, "placement": "same-cpu", "idle_hold": True,
                 "priority": 0}, median)
    cells = [fanout("rawtcp", "tcp", 4, "one", 40.0), fanout("rawtcp", "tcp", 4, "each", 50.0),
             fanout("zmq", "tcp", 4, "each", 150.0), fanout("zmq", "tcp", 16, "each", 600.0)]
    assert median_ratios(cells) == [None, None, 3.0, None]
