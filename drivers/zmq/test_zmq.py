"""End-to-end tests of mwbench-driver-zmq: real server, client and collocated processes."""

import os
import signal
import subprocess
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    assert_every_event_delivered,
    cell,
    fanout_subscribers,
    measuring,
    read_result,
    run_fanout,
    wait_until_measuring,
    wrong_option_cases,
)
from open_loop_cells import open_loop_cut_off, run_open_cell

ZMQ = Driver("zmq")
DRIVER = ZMQ.program
pytestmark = ZMQ.built_or_skipped()
start_server = ZMQ.server
run = ZMQ.run
run_client = ZMQ.client


def test_describe():
    d = ZMQ.describe()
    assert d["driver"] == "zmq" and d["middleware"] == "ZeroMQ"
    assert d["modes"] == {"remote": ["tcp", "uds"], "collocated": ["inproc"]}
    assert d["host_local"] == ["uds"]
    assert d["operations"] == {"roundtrip": {"payload": False}, "ping": {"payload": False},
                               "octets": {"payload": True}, "fanout": {"payload": True}}
    assert set(d["options"]) == {"wait", "verify"}
    assert d["max_servants"] == 1 and "max_threads" not in d
    assert d["max_subscribers"] == 64
    assert d["open_loop"] == ["roundtrip", "ping", "octets"]


@pytest.mark.parametrize("wait", ["block", "spin"])
@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("operation", ["roundtrip", "ping"])
def test_remote_round_trip(tmp_path, operation, transport, wait):
    server = start_server(tmp_path, *cell(operation, transport), "--option", f"wait={wait}")
    endpoint = server.endpoint.read_text().strip()
    assert endpoint.startswith("tcp://127.0.0.1:" if transport == "tcp" else "ipc:///tmp/")
    client, output = run_client(tmp_path, server, *cell(operation, transport),
                                "--option", f"wait={wait}")
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["options"] == {"wait": wait}
    assert header["middleware_config"]["wait"] == wait
    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    assert server_header["middleware_config"]["wait"] == wait
    if transport == "uds":  # the socket file and its private directory are gone
        assert not Path(endpoint.removeprefix("ipc://")).parent.exists()


@pytest.mark.parametrize("wait", ["block", "spin"])
@pytest.mark.parametrize("operation", ["roundtrip", "ping"])
def test_collocated_round_trip(tmp_path, operation, wait):
    proc, output = run("collocated", tmp_path, *cell(operation, "inproc"),
                       "--option", f"wait={wait}", "--batch", "auto")
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and len(samples) == 200
    assert header["middleware_config"]["endpoints"] == ["inproc://mwbench-rep-1"]


@pytest.mark.parametrize("transport", ["tcp", "uds", "inproc"])
@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20])
def test_octets_payload_arrives_intact(tmp_path, transport, payload):
    header, _ = ZMQ.run_cell(tmp_path, *cell("octets", transport, payload, "--option", "verify=1"),
                            collocated=transport == "inproc", samples=50)
    assert header["payload_bytes"] == payload and header["sample_count"] == 50


def test_verify_fails_loudly_on_a_wrong_payload(tmp_path):
    # The client sends 8 bytes where the server expects 16.
    server = start_server(tmp_path, *cell("octets", "tcp", 16, "--option", "verify=1"))
    client, _ = run_client(tmp_path, server, *cell("octets", "tcp", 8, "--option", "verify=1"))
    assert client.returncode == 1
    assert "the REP side found a payload mismatch" in client.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "octets: 8 bytes, expected 16 (verify=1)" in server.proc.stderr.read()


@pytest.mark.parametrize("mode", ["remote", "collocated"])
def test_threads_write_one_series_each(tmp_path, mode):
    args = cell("octets", "tcp" if mode == "remote" else "inproc", 1000,
                "--option", "verify=1", "--threads", "3")
    header, samples = ZMQ.run_cell(tmp_path, *args, collocated=mode == "collocated", samples=100)
    assert len(samples) == 300 and [s["count"] for s in header["series"]] == [100] * 3
    assert len(header["middleware_config"]["endpoints"]) == 3


def test_one_connection_per_thread(tmp_path):
    server = start_server(tmp_path, *cell("ping", "tcp"), "--threads", "3")
    ports = [int(e.rsplit(":", 1)[1]) for e in server.endpoint.read_text().split()]
    assert len(set(ports)) == 3
    seen = ZMQ.connections_per_port(tmp_path, server.endpoint, ports, *cell("ping", "tcp"),
                                    "--threads", "3")
    assert server.stop()[0] == 0
    assert seen == [1, 1, 1]


def test_more_client_threads_than_rep_sockets_is_an_error(tmp_path):
    server = start_server(tmp_path, *cell("ping", "tcp"))
    client, _ = run_client(tmp_path, server, *cell("ping", "tcp"), "--threads", "2")
    assert client.returncode == 1
    assert "--threads 2 needs one each" in client.stderr
    assert server.stop()[0] == 0


@pytest.mark.parametrize("role, args, message", [
    *wrong_option_cases("ping", "tcp", [
        ("wait=sleep", "--option wait=sleep: allowed values: block, spin"),
        ("verify=yes", "--option verify"),
        ("colour=1", "--option colour"),
    ]),
    ("client", cell("ping", "unix"), "unix"),
    ("collocated", cell("ping", "tcp"), "tcp"),
    ("client", [*cell("ping", "tcp"), "--servants", "2"], "--servants 2"),
])
def test_wrong_options_transports_and_servants_are_usage_errors(tmp_path, role, args, message):
    ZMQ.assert_usage_error(tmp_path, role, *args, message=message)


@pytest.mark.parametrize("wait", ["block", "spin"])
@pytest.mark.parametrize("transport", ["tcp", "uds"])
def test_server_stops_on_sigterm_while_serving(tmp_path, transport, wait):
    # SIGTERM reaches a server whose REP socket is blocked (or spinning) in a
    # receive with a client connected and idle.
    server = start_server(tmp_path, *cell("roundtrip", transport), "--option", f"wait={wait}")
    endpoint = server.endpoint.read_text().strip()
    client, _ = run_client(tmp_path, server, *cell("roundtrip", transport),
                           "--option", f"wait={wait}", samples=10)
    assert client.returncode == 0, client.stderr
    status, err = server.stop()
    assert status == 0, err
    assert read_result(server.output)[0]["rusage"]["user_us"] >= 0
    if transport == "uds":
        assert not Path(endpoint.removeprefix("ipc://")).parent.exists()


# ---- fanout (docs/driver-contract-fanout.md) -------------------------------

@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("subscribers, processes", [(1, 1), (4, 1), (4, 4)])
def test_fanout_reaches_every_subscriber(tmp_path, transport, subscribers, processes):
    header, samples, server_headers = run_fanout(
        ZMQ, tmp_path, cell("fanout", transport), subscribers, processes)
    assert len(samples) == 200
    assert header["fanout"] == {"subscribers": subscribers, "subscriber_processes": processes,
                                "events_published": 220}
    assert header["middleware_config"]["pattern"] == "PUB/SUB, replies PUSH/PULL"
    assert len(header["middleware_config"]["endpoints"]) == 2 * subscribers
    share = subscribers // processes
    assert [h["fanout"]["first_subscriber"] for h in server_headers] == \
        list(range(0, subscribers, share))
    if transport == "uds":  # every process's socket files and directory are gone
        for endpoint in header["middleware_config"]["endpoints"]:
            assert not Path(endpoint.removeprefix("ipc://")).parent.exists()


def test_fanout_payload_arrives_intact(tmp_path):
    # verify=1: every subscriber checks every byte of every event.
    header, _, _ = run_fanout(ZMQ, tmp_path, cell("fanout", "tcp", 1000, "--option", "verify=1"),
                              4, 2, "--batch", "4", samples=100)
    assert header["payload_bytes"] == 1000 and header["batch_size"] == 4
    assert header["fanout"]["events_published"] == 20 + 100 * 4


@pytest.mark.parametrize("payload", [0, 1000])
def test_fanout_collocated(tmp_path, payload):
    proc, output = run("collocated", tmp_path, *cell("fanout", "inproc", payload),
                       "--option", "verify=1", "--subscribers", "4")
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200
    assert header["fanout"]["subscriber_processes"] == 0
    assert_every_event_delivered(header)
    assert header["middleware_config"]["endpoints"][:2] == ["inproc://mwbench-sub-0",
                                                            "inproc://mwbench-reply-0"]


def test_fanout_spin_within_the_cpus(tmp_path):
    subscribers = (os.cpu_count() or 1) - 1
    if subscribers < 1:
        pytest.skip("one CPU: no spinning fan-out fits")
    proc, output = run("collocated", tmp_path, *cell("fanout", "inproc"), "--option", "wait=spin",
                       "--subscribers", str(subscribers))
    assert proc.returncode == 0, proc.stderr
    header, _ = read_result(output)
    assert header["middleware_config"]["wait"] == "spin"
    assert_every_event_delivered(header)


@pytest.mark.parametrize("args, message", [
    (["--option", "wait=spin", "--subscribers", str(os.cpu_count())],
     f"--option wait=spin: fanout with --subscribers {os.cpu_count()} keeps "
     f"{os.cpu_count() + 1} threads busy"),
    (["--threads", "2"], "--threads 2: fanout has one publishing thread"),
    (["--subscribers", "65"], "--subscribers 65"),
])
@pytest.mark.parametrize("role", ["server", "client", "collocated"])
def test_fanout_usage_errors(tmp_path, role, args, message):
    transport = "inproc" if role == "collocated" else "tcp"
    endpoint = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run([str(DRIVER), "--role", role, *cell("fanout", transport), *endpoint,
                           *args], capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert not (tmp_path / "endpoint").exists()


def start_publisher(tmp_path, servers, subscribers):
    """The publisher of a fan-out, started so that it announces its first sample."""
    endpoints = [a for s in servers for a in ("--endpoint-file", str(s.endpoint))]
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [str(DRIVER), "--role", "client", *cell("fanout", "tcp"), *endpoints,
         "--subscribers", str(subscribers), "--output", str(tmp_path / "client.result"),
         "--timeout", "2", "--samples", "5000000", "--warmup", "0"],
        stderr=subprocess.PIPE, text=True, env=env)
    client.measuring = flag
    return client


@pytest.mark.parametrize("when", ["before the handshake", "while measuring"])
def test_fanout_fails_without_a_subscriber(tmp_path, when):
    # Before: the process is stopped (SIGSTOP), its subscription never comes.
    # While measuring: it is killed (SIGKILL), its replies never come.
    servers = fanout_subscribers(ZMQ, tmp_path, cell("fanout", "tcp"), 4, 4)
    if when == "before the handshake":
        servers[2].proc.send_signal(signal.SIGSTOP)
    client = start_publisher(tmp_path, servers, 4)
    if when == "while measuring":
        wait_until_measuring(client, client.measuring)
        servers[2].proc.kill()
    _, err = client.communicate(timeout=HANG_S)
    assert client.returncode == 1
    if when == "before the handshake":
        assert "fanout: 1 of 4 subscribers (2) did not answer within 2 s (--timeout)" in err
        servers[2].proc.send_signal(signal.SIGCONT)
    else:
        assert "fanout: no reply for 2 s (--timeout); 1 of 4 subscribers have not replied" in err
        assert err.rstrip().endswith("(2)")
        servers[2].proc.wait()
    for index, server in enumerate(servers):
        if index != 2 or when == "before the handshake":
            assert server.stop()[0] == 0


def test_fanout_wrong_payload_stops_the_subscriber(tmp_path):
    (server,) = fanout_subscribers(ZMQ, tmp_path, cell("fanout", "uds", 16), 1, 1)
    proc, _ = run_client(tmp_path, server, *cell("fanout", "uds", 8), "--timeout", "1")
    assert proc.returncode == 1 and "have not replied to event 1 (0)" in proc.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "fanout: subscriber 0: event 1 of kind 1 carries 8 bytes, expected 16" in \
        server.proc.stderr.read()


@pytest.mark.parametrize("load", ["constant:2000", "poisson:2000"])
@pytest.mark.parametrize("operation, transport, payload, wait", [
    ("roundtrip", "tcp", 0, "block"), ("ping", "uds", 0, "block"),
    ("roundtrip", "inproc", 0, "block"), ("ping", "tcp", 0, "spin"),
    ("octets", "tcp", 65536, "block"), ("octets", "inproc", 65536, "block"),
])
def test_open_loop_answers_every_call(tmp_path, load, operation, transport, payload, wait):
    # A DEALER on the reader thread sends to the closed loop's REP socket, the call number
    # in the envelope (its header checked by run_open_cell), payloads verified.
    args = cell(operation, transport, payload, "--option", f"wait={wait}", "--option", "verify=1")
    header, _, _ = run_open_cell(ZMQ, tmp_path, load, *args, collocated=transport == "inproc")
    assert header["middleware_config"]["pattern"].startswith("DEALER/REP")


def test_fanout_has_no_open_loop(tmp_path):
    # One publisher, many subscribers: not a call with one reply, so not in open_loop.
    ZMQ.assert_usage_error(tmp_path, "collocated", *cell("fanout", "inproc"),
                           "--load", "poisson:2000", message="fanout")


def test_open_loop_counts_the_calls_a_stopped_server_leaves_unanswered(tmp_path):
    # The calls in flight when the wait ends are left to the DEALER, which closes with
    # linger 0; the result still adds up.
    open_loop_cut_off(ZMQ, tmp_path, *cell("ping", "tcp"))
