"""The raw-socket baseline: which cell a middleware cell is compared with."""

from mwbench.baseline import baseline_key, median_ratios


def factors(driver, transport, mode="remote", placement="same-cpu", repetition=1):
    return dict(driver=driver, transport=transport, mode=mode, operation="roundtrip",
                payload_bytes=0, placement=placement, idle_hold=True, priority=0,
                repetition=repetition)


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
        (factors("omniorb", "tcp", repetition=2), 11.0),  # no rawtcp in repetition 2
    ]
    assert median_ratios(cells) == [None, None, None, 1.2, 1.25, 1.5, None, None]


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
                 "priority": 0, "repetition": 1}, median)
    cells = [fanout("rawtcp", "tcp", 4, "one", 40.0), fanout("rawtcp", "tcp", 4, "each", 50.0),
             fanout("zmq", "tcp", 4, "each", 150.0), fanout("zmq", "tcp", 16, "each", 600.0)]
    assert median_ratios(cells) == [None, None, 3.0, None]
