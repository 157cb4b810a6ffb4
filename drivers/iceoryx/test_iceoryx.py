"""End-to-end tests of mwbench-driver-iceoryx: real RouDi, server and client processes.

Run as every driver's tests are (drivers/README.md). Each test that
needs RouDi gets a private one (the `roudi` fixture): started with the
driver's own configuration, stopped and its files removed whatever the test
did. iceoryx 2.0 allows one RouDi per machine, so these tests refuse to run
beside one they did not start.
"""

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import time

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    assert_every_event_delivered,
    assert_open_loop_result,
    cell,
    fanout_subscribers,
    measuring,
    read_result,
    run_fanout,
    wait_until_measuring,
)

from testsupport import daemons

ICEORYX = Driver("iceoryx")
DRIVER = ICEORYX.program
# RouDi: one per machine (conftest.py)
pytestmark = [ICEORYX.built_or_skipped(), pytest.mark.once_per_machine]

WAITS = ["waitset", "spin"]
ROUDI_SOCKET = "/tmp/roudi"


def describe():
    return ICEORYX.describe()


def roudi_answers():
    return daemons.answers(ROUDI_SOCKET)


def leftovers(daemon):
    return sorted(path for pattern in daemon["leftovers"] for path in glob.glob(pattern))


def remove_leftovers(daemon):
    for path in leftovers(daemon):
        with contextlib.suppress(FileNotFoundError):  # a process may remove its own meanwhile
            os.unlink(path)


@pytest.fixture
def roudi(tmp_path):
    """A private RouDi, as the orchestrator starts it; always stopped and cleaned."""
    if shutil.which("iox-roudi") is None:
        pytest.skip("iox-roudi not found (Debian package iceoryx)")
    if roudi_answers():
        pytest.skip("a RouDi these tests did not start is running")
    daemon = describe()["daemon"]
    remove_leftovers(daemon)
    log = open(tmp_path / "roudi.log", "wb")
    proc = subprocess.Popen([shutil.which(daemon["program"]), *daemon["args"]],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + HANG_S
        while not roudi_answers():
            assert proc.poll() is None, (tmp_path / "roudi.log").read_text()
            assert time.monotonic() < deadline, f"RouDi did not bind /tmp/roudi in {HANG_S} s"
            time.sleep(0.01)
        yield proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
        remove_leftovers(daemon)


@pytest.fixture
def serve(tmp_path, roudi):
    """Starts servers (under the private RouDi) that are killed at the end, even when a
    test fails before it stops them."""
    started = []

    def start(args):
        server = DriverServer(DRIVER, tmp_path, args)
        started.append(server.proc)
        return server

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_describe():
    d = describe()
    assert d["contract"] == 1 and d["driver"] == "iceoryx"
    assert d["middleware_version"] == "2.0.3"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["shm"], "collocated": ["inproc"]}
    assert d["host_local"] == ["shm"]
    assert set(d["options"]) == {"wait", "verify"}
    assert d["max_threads"] == 1 and d["max_servants"] == 1
    assert d["max_subscribers"] == 64  # a reply and two late hellos each in a 256-chunk queue
    assert d["open_loop"] == ["roundtrip", "octets"]
    daemon = d["daemon"]
    assert daemon["program"] == "iox-roudi" and daemon["package"] == "iceoryx"
    config = daemon["args"][daemon["args"].index("--config-file") + 1]
    assert os.path.isfile(config) and os.path.samefile(config, DRIVER.parent / "roudi_config.toml")
    assert daemon["ready_socket"] == ROUDI_SOCKET
    assert "/dev/shm/iceoryx_mgmt" in daemon["leftovers"]
    assert all(p.startswith(("/dev/shm/", "/tmp/")) for p in daemon["leftovers"])


@pytest.mark.parametrize("wait", WAITS)
def test_round_trip(tmp_path, serve, wait):
    args = cell("roundtrip", "shm", 0, "--option", f"wait={wait}")
    server = serve(args)
    endpoint = server.endpoint.read_text().strip()
    assert endpoint == f"iox:service=mwbench;instance={server.proc.pid};ping=ping;pong=pong"

    client, output = ICEORYX.client(tmp_path, server, *args)
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["options"]["wait"] == wait
    config = header["middleware_config"]
    assert config["wait"] == wait
    assert config["services"] == {"ping": f"mwbench/{server.proc.pid}/ping",
                                  "pong": f"mwbench/{server.proc.pid}/pong"}
    assert config["runtime"] == f"mwbench-iox-client-{header['process']['pid']}"
    assert config["subscriber"]["queue_capacity"] == 1  # closed: one pong in flight

    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    assert server_header["middleware_config"]["wait"] == wait


@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20, (16 << 20) - 256])
def test_octets_payload_arrives_intact(tmp_path, serve, payload):
    # verify=1: the server checks every byte in the loaned chunk, the pong says whether
    # all were right.
    args = cell("octets", "shm", payload, "--option", "verify=1")
    server = serve(args)
    client, output = ICEORYX.client(tmp_path, server, *args, samples=30)
    assert client.returncode == 0, client.stderr
    header, _ = read_result(output)
    assert header["payload_bytes"] == payload and header["sample_count"] == 30
    status, err = server.stop()
    assert status == 0, err


def test_a_wrong_payload_fails_both_ends(tmp_path, serve):
    server = serve(cell("octets", "shm", 16, "--option", "verify=1"))
    client, _ = ICEORYX.client(tmp_path, server, *cell("octets", "shm", 8, "--option", "verify=1"))
    assert client.returncode == 1
    assert "octets: the server found a payload mismatch (verify=1)" in client.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "payload mismatch at byte 8 of 8 (expected 16 bytes" in server.proc.stderr.read()


@pytest.mark.parametrize("wait", WAITS)
@pytest.mark.parametrize("operation,payload", [("roundtrip", 0), ("octets", 4096)])
def test_collocated(tmp_path, roudi, wait, operation, payload):
    # Unpinned: with wait=spin on one CPU every round trip would wait for a preemption.
    proc, output = ICEORYX.run("collocated", tmp_path, *cell(
        operation, "inproc", payload, "--option", f"wait={wait}", "--option", "verify=1"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and len(samples) == 200
    pid = header["process"]["pid"]
    assert header["middleware_config"]["services"]["ping"] == f"mwbench/{pid}/ping"
    assert header["middleware_config"]["runtime"] == f"mwbench-iox-collocated-{pid}"


@pytest.mark.parametrize("wait, load", [
    ("waitset", "constant:2000"), ("waitset", "poisson:2000"), ("spin", "poisson:2000")])
def test_open_loop(tmp_path, serve, wait, load):
    args = cell("roundtrip", "shm", 0, "--option", f"wait={wait}")
    server = serve(args)
    client, output = ICEORYX.client(tmp_path, server, *args, "--load", load)
    assert client.returncode == 0, client.stderr
    header = assert_open_loop_result(output, load)
    assert header["middleware_config"]["subscriber"]["queue_capacity"] == 256
    assert server.stop()[0] == 0
    assert read_result(server.output)[0]["middleware_config"]["subscriber"] == \
        header["middleware_config"]["subscriber"]  # a server queues 256 whatever the load


@pytest.mark.parametrize("load", ["constant:2000", "poisson:2000"])
def test_open_loop_collocated_octets(tmp_path, roudi, load):
    proc, output = ICEORYX.run("collocated", tmp_path, *cell(
        "octets", "inproc", 4096, "--option", "verify=1", "--load", load))
    assert proc.returncode == 0, proc.stderr
    assert assert_open_loop_result(output, load)["payload_bytes"] == 4096


def test_client_fails_when_no_server_appears(tmp_path, roudi):
    (tmp_path / "endpoint").write_text("iox:service=mwbench;instance=nobody;ping=ping;pong=pong\n")
    proc, output = ICEORYX.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"),
                               *cell("roundtrip", "shm", 0, "--timeout", "1"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("mwbench-driver-iceoryx: error: no subscriber of "
                                  "mwbench/nobody/ping after 1 s (is the server running?)")
    assert not output.exists()


@pytest.mark.parametrize("role", ["server", "collocated"])
def test_fails_at_once_without_roudi(tmp_path, role):
    if roudi_answers():
        pytest.skip("a RouDi is running")
    transport = "shm" if role == "server" else "inproc"
    endpoint = ["--endpoint-file", tmp_path / "endpoint"] if role == "server" else []
    proc = subprocess.run(
        [DRIVER, "--role", role, *cell("roundtrip", transport, 0), *endpoint,
         "--output", tmp_path / "out"],
        capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 1
    assert proc.stderr.startswith("mwbench-driver-iceoryx: error: RouDi (iox-roudi) is not "
                                  "running: cannot reach its socket /tmp/roudi")
    assert not (tmp_path / "endpoint").exists()


@pytest.mark.parametrize("args,message", [
    (cell("roundtrip", "shm", 0, "--option", "wait=poll"),
     "--option wait=poll: allowed values: waitset, spin"),
    (cell("roundtrip", "shm", 0, "--option", "verify=2"), "verify"),
    (cell("roundtrip", "shm", 0, "--option", "colour=1"), "--option colour"),
    (cell("roundtrip", "shm", 0, "--threads", "2"), "--threads 2"),
    (cell("roundtrip", "shm", 0, "--servants", "2"), "--servants 2"),
    (cell("roundtrip", "tcp", 0), "tcp"),
    (cell("roundtrip", "shm", 8), "--payload-bytes 8"),
    (cell("octets", "shm", 16 << 20), "--payload-bytes 16777216: at most 16776960"),
    (cell("ping", "shm", 0), "ping"),
])
def test_bad_arguments_are_exit_2(tmp_path, args, message):
    proc, _ = ICEORYX.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"),
                          *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("mwbench-driver-iceoryx: error:")
    assert message in proc.stderr


@pytest.mark.parametrize("wait", WAITS)
def test_server_stops_on_sigterm(tmp_path, serve, wait):
    server = serve(cell("roundtrip", "shm", 0, "--option", f"wait={wait}"))
    status, err = server.stop()
    assert status == 0, err
    assert read_result(server.output)[0]["role"] == "server"
    # It deregistered from RouDi: its runtime's socket is gone.
    assert not os.path.exists(f"/tmp/mwbench-iox-server-{server.proc.pid}")


# ---- fanout (docs/driver-contract-fanout.md) -------------------------------------------

@pytest.mark.parametrize("subscribers,processes,payload", [
    (1, 1, 0), (4, 1, 0), (4, 4, 0), (4, 2, 1000), (16, 1, 0)])
def test_fanout(tmp_path, roudi, subscribers, processes, payload):
    # run_fanout checks that every subscriber received every event, no more.
    args = cell("fanout", "shm", payload, "--option", "verify=1")
    header, samples, servers = run_fanout(ICEORYX, tmp_path, args, subscribers, processes)
    assert len(samples) == 200
    assert header["fanout"]["subscriber_processes"] == processes
    assert header["middleware_config"]["services"] == {"event": "mwbench/fanout/event",
                                                       "reply": "mwbench/fanout/reply"}
    share = subscribers // processes
    assert [s["fanout"]["first_subscriber"] for s in servers] == list(range(0, subscribers, share))


def test_fanout_one_process_per_subscriber_with_a_payload(tmp_path, roudi):
    args = cell("fanout", "shm", 1000, "--option", "verify=1")
    header, _, servers = run_fanout(ICEORYX, tmp_path, args, 4, 4)
    assert header["payload_bytes"] == 1000 and len(servers) == 4


@pytest.mark.parametrize("wait", WAITS)
def test_fanout_one_subscriber_each_wait(tmp_path, roudi, wait):
    # wait=spin keeps two threads busy (subscriber, publisher): allowed on two CPUs.
    if wait == "spin" and (os.cpu_count() or 1) < 2:
        pytest.skip("wait=spin with one subscriber needs two CPUs")
    run_fanout(ICEORYX, tmp_path, cell("fanout", "shm", 0, "--option", f"wait={wait}"), 1, 1)


@pytest.mark.parametrize("subscribers,payload", [(1, 0), (4, 0), (4, 1000), (16, 0), (64, 0)])
def test_fanout_collocated(tmp_path, roudi, subscribers, payload):
    # 64 is max_subscribers: every thread, port and WaitSet of the limit in one process.
    proc, output = ICEORYX.run("collocated", tmp_path, *cell(
        "fanout", "inproc", payload, "--option", "verify=1", "--subscribers", str(subscribers)))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200
    assert header["fanout"]["subscriber_processes"] == 0
    assert_every_event_delivered(header)


def test_fanout_beyond_the_limit_is_exit_2(tmp_path):
    proc, _ = ICEORYX.run("collocated", tmp_path, *cell("fanout", "inproc", 0,
                                                        "--subscribers", "65"))
    assert proc.returncode == 2, proc.stderr
    assert "--subscribers 65" in proc.stderr


@pytest.mark.parametrize("role", ["collocated", "client", "server"])
def test_fanout_refuses_more_spinners_than_cpus(tmp_path, role):
    cpus = os.cpu_count()
    transport = "inproc" if role == "collocated" else "shm"
    endpoint = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run(
        [DRIVER, "--role", role, *endpoint, *cell("fanout", transport, 0, "--option", "wait=spin",
                                                  "--subscribers", str(cpus))],
        capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(
        f"mwbench-driver-iceoryx: error: --option wait=spin with --subscribers {cpus}: "
        f"{cpus + 1} threads would spin (each subscriber and the publisher) on {cpus} CPUs; "
        "use wait=waitset")
    assert not (tmp_path / "endpoint").exists()


def test_fanout_client_fails_naming_a_subscriber_killed_mid_run(tmp_path, roudi):
    args = cell("fanout", "shm", 0)
    servers = fanout_subscribers(ICEORYX, tmp_path, args, 4, 4)
    try:
        endpoints = [a for s in servers for a in ("--endpoint-file", str(s.endpoint))]
        env, flag = measuring(tmp_path)
        client = subprocess.Popen(
            [DRIVER, "--role", "client", *endpoints, *args, "--subscribers", "4",
             "--timeout", "2", "--samples", "100000000", "--output", tmp_path / "client.result"],
            stderr=subprocess.PIPE, text=True, env=env)
        wait_until_measuring(client, flag)
        servers[2].proc.kill()  # SIGKILL
        _, err = client.communicate(timeout=HANG_S)
        assert client.returncode == 1
        assert err.startswith("mwbench-driver-iceoryx: error: 1 of 4 subscribers have not "
                              "replied to event ")
        assert "(2) within 2 s (--timeout)" in err
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.proc.kill()
            server.proc.wait()


def test_fanout_client_names_the_subscribers_missing_from_the_handshake(tmp_path, roudi):
    # Subscriber process 1 of 2 was never started: its endpoint is written by hand.
    args = cell("fanout", "shm", 0)
    (server,) = fanout_subscribers(ICEORYX, tmp_path, args, 2, 1)
    try:
        (tmp_path / "endpoint-b").write_text(
            "iox:service=mwbench;instance=fanout;event=event;reply=reply;subscribers=2-3\n")
        proc, output = ICEORYX.run("client", tmp_path, "--endpoint-file", str(server.endpoint),
                                   "--endpoint-file", str(tmp_path / "endpoint-b"), *args,
                                   "--subscribers", "4", "--timeout", "1")
        assert proc.returncode == 1
        assert proc.stderr.startswith(
            "mwbench-driver-iceoryx: error: 2 of 4 subscribers of mwbench/fanout/event did not "
            "answer the handshake within 1 s (--timeout): 2, 3")
        assert not output.exists()
    finally:
        server.stop()


def test_fanout_client_checks_the_subscriber_numbers(tmp_path, roudi):
    args = cell("fanout", "shm", 0)
    (server,) = fanout_subscribers(ICEORYX, tmp_path, args, 2, 1)
    try:
        proc, _ = ICEORYX.run("client", tmp_path, "--endpoint-file", str(server.endpoint),
                              *args, "--subscribers", "3", "--timeout", "1")
        assert proc.returncode == 1
        assert "the subscriber processes host subscribers 0-1, not 0-2 in order" in proc.stderr
    finally:
        server.stop()
