"""rawtcp's open loop (--load) and its stalling server (--option stall_ms): real server and
client processes. Nothing here judges a time the machine took: only counts, figures that
the schedule fixes, and bounds that a stall sets on any machine."""

import math

import pytest
from driver_processes import Driver, cell, read_result, read_result_with_series

RAWTCP = Driver("rawtcp")
pytestmark = RAWTCP.built_or_skipped()
SAMPLES = 200


def run_open(tmp_path, operation, transport, *client_args, server_args=(), warmup=20,
             samples=SAMPLES):
    """A server and an open-loop client of `operation`; returns the client's header,
    samples and named series, and the server's header."""
    server = RAWTCP.server(tmp_path, *cell(operation, transport), *server_args)
    client, output = RAWTCP.client(tmp_path, server, *cell(operation, transport), *client_args,
                                   *server_args, samples=samples, warmup=warmup)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    return (*read_result_with_series(output), read_result(server.output)[0])


def test_describe_lists_the_open_loop_operations_and_the_stall():
    d = RAWTCP.describe()
    assert d["open_loop"] == ["roundtrip", "ping", "octets", "octets_out", "octets_inout"]
    assert {"stall_ms", "stall_every_ms", "receive"} <= set(d["options"])
    assert d["option_values"]["receive"] == ["reader", "sender"]


@pytest.mark.parametrize(("operation", "transport"),
                         [("roundtrip", "tcp"), ("roundtrip", "uds"), ("ping", "tcp")])
@pytest.mark.parametrize("kind", ["constant", "poisson"])
@pytest.mark.parametrize("receive", ["reader", "sender"])
def test_an_open_loop_answers_every_call(tmp_path, operation, transport, kind, receive):
    header, samples, named, server = run_open(tmp_path, operation, transport,
                                              "--load", f"{kind}:2000",
                                              "--option", f"receive={receive}")
    load = header["load"]
    assert load["kind"] == kind and load["rate_per_s"] == 2000.0
    assert load["calls"] == SAMPLES and load["lost"] == 0  # loopback loses nothing
    assert header["sample_count"] + load["lost"] == load["calls"] == len(samples)
    assert ("seed" in load) == (kind == "poisson")
    assert load["late_threshold_ns"] == 500_000
    assert 0 <= load["late_sends"] <= load["calls"]
    assert load["outstanding_at_end"] <= load["calls"]
    assert list(named) == ["service_time", "send_lag"]
    # The response time from the intended start is the send lag plus the service time.
    assert samples == [s + lag for s, lag in zip(named["service_time"], named["send_lag"],
                                                 strict=True)]
    assert max(named["send_lag"]) == load["max_send_lag_ns"]
    assert sum(lag > load["late_threshold_ns"] for lag in named["send_lag"]) == load["late_sends"]
    assert header["batch_size"] == 1 and header["warmup"] == 20
    assert "middleware_config" not in server  # no stall asked for
    if kind == "constant":  # the schedule's rate: 200 calls over 199 gaps of 0.5 ms
        assert math.isclose(load["offered_per_s"], SAMPLES / (199 * 0.5e-3), rel_tol=1e-9)


def test_a_seed_replays_the_poisson_schedule(tmp_path):
    offered = []
    for run in ("first", "second"):
        (tmp_path / run).mkdir()
        header, *_ = run_open(tmp_path / run, "ping", "tcp", "--load", "poisson:2000",
                              "--load-seed", "42")
        assert header["load"]["seed"] == 42
        offered.append(header["load"]["offered_per_s"])
    assert offered[0] == offered[1]  # the intended times, not the machine's


@pytest.mark.parametrize(("args", "message"), [
    (["--load", "poisson:-3"],
     "--load poisson:-3: the rate must be a positive finite number of calls per second"),
    (["--load", "constant:0"], "--load constant:0: the rate must be a positive"),
    (["--load", "constant:fast"], "--load constant:fast: the rate must be a positive"),
    (["--load", "bursty:100"], "--load bursty:100: unknown load"),
    (["--load", "constant:1000", "--threads", "2"], "--threads 1, not 2"),
    (["--load", "constant:1000", "--batch", "8"], "--batch 1 or auto, not 8"),
    (["--load-seed", "x"], "--load-seed x: expected an integer"),
])
def test_a_bad_load_is_a_usage_error(tmp_path, args, message):
    RAWTCP.assert_usage_error(tmp_path, "client", *cell("roundtrip", "tcp"), *args,
                              message=message)


@pytest.mark.parametrize("payload", [1000, 200_000])  # one recv(), and many
@pytest.mark.parametrize("operation", ["octets", "octets_out", "octets_inout"])
@pytest.mark.parametrize("receive", ["reader", "sender"])
def test_payloads_arrive_intact_in_an_open_loop(tmp_path, operation, payload, receive):
    """verify=1: the server checks every request, the client every reply, while requests
    queue on the connection."""
    verify = ("--option", "verify=1", "--option", f"receive={receive}")
    server = RAWTCP.server(tmp_path, *cell(operation, "tcp", payload), *verify)
    client, output = RAWTCP.client(tmp_path, server, *cell(operation, "tcp", payload), *verify,
                                   "--load", "poisson:2000", samples=100)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples = read_result(output)
    assert header["load"]["calls"] == len(samples) == 100 and header["load"]["lost"] == 0


def test_fanout_has_no_open_loop(tmp_path):
    RAWTCP.assert_usage_error(tmp_path, "client", *cell("fanout", "tcp", 64), "--load",
                              "constant:1000", message="no open-loop load for operation fanout")


def test_a_server_takes_no_load(tmp_path):
    RAWTCP.assert_usage_error(tmp_path, "server", *cell("roundtrip", "tcp"), "--load",
                              "constant:1000", message="a server sends no load")


@pytest.mark.parametrize(("option", "message"), [
    ("stall_ms=-5", "--option stall_ms=-5: expected a whole number of milliseconds"),
    ("stall_ms=1.5", "--option stall_ms=1.5: expected a whole number"),
    ("stall_every_ms=0", "--option stall_every_ms=0: must be more than stall_ms (10)"),
])
def test_a_bad_stall_is_a_usage_error(tmp_path, option, message):
    RAWTCP.assert_usage_error(tmp_path, "server", *cell("roundtrip", "tcp"), "--option",
                              "stall_ms=10", "--option", option, message=message)


STALL_MS = 40
RATE = 1000  # calls per second: 40 calls are due during one stall


@pytest.mark.parametrize("kind", ["constant", "closed"])
def test_a_stall_delays_every_call_due_during_it(tmp_path, kind):
    """The server stalls STALL_MS at the connection's first request (call 0: no warm-up),
    at an instant `a` no earlier than call 0's intended time t0, and answers in order. So
    every call k is answered after a + STALL_MS, and its response time from its intended
    time t0 + k/RATE is at least STALL_MS - k/RATE, on any machine, however late the
    server or the sender ran. A closed loop instead times the stall in call 0 alone."""
    load = ["--load", f"constant:{RATE}"] if kind == "constant" else []
    header, samples, named, server = run_open(
        tmp_path, "roundtrip", "tcp", *load, warmup=0,
        server_args=("--option", f"stall_ms={STALL_MS}", "--option", "stall_every_ms=60000"))
    assert server["middleware_config"] == {"stall_ms": STALL_MS, "stall_every_ms": 60000,
                                           "stalls": 1}
    stall_ns = STALL_MS * 1_000_000
    assert samples[0] >= stall_ns
    if kind == "closed":
        return
    assert header["load"]["lost"] == 0 and len(samples) == SAMPLES
    assert named["service_time"][0] >= stall_ns  # the request the server held
    gap_ns = 1e9 / RATE
    due = [k for k in range(SAMPLES) if k * gap_ns < stall_ns]
    assert len(due) == STALL_MS * RATE // 1000
    assert all(samples[k] >= stall_ns - k * gap_ns for k in due), samples[:len(due)]
    # Half of them, at least: the tail a closed loop would have hidden.
    assert sum(s >= stall_ns / 2 for s in samples) >= len(due) // 2


@pytest.mark.parametrize("receive", ["reader", "sender"])
def test_requests_larger_than_the_socket_never_block_the_replies(tmp_path, receive):
    """octets_inout of 8 MB, more than the socket's buffers hold, at a rate no machine
    keeps up with: while a request does not fit, the server's reply to the one before
    fills the other direction; the client takes the replies as it sends (receive=sender:
    its one thread receives too), so neither end waits for the other and no call is
    lost."""
    payload = 8 << 20
    args = (*cell("octets_inout", "tcp", payload), "--option", f"receive={receive}")
    server = RAWTCP.server(tmp_path, *args)
    client, output = RAWTCP.client(tmp_path, server, *args, "--load", "constant:10000",
                                   "--timeout", "60", samples=10, warmup=2)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples = read_result(output)
    assert header["load"]["calls"] == len(samples) == 10 and header["load"]["lost"] == 0
