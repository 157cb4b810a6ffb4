"""End-to-end tests of mwbench-driver-rawtcp: real server and client processes."""

import json
import os
import re
import signal
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    cell,
    fanout_subscribers,
    measuring,
    read_result,
    run_fanout,
    wait_until_measuring,
)

RAWTCP = Driver("rawtcp")
DRIVER = RAWTCP.program
pytestmark = RAWTCP.built_or_skipped()


def cell_args(role, operation, transport, payload=0, *extra):
    return [
        str(DRIVER), "--role", role, "--operation", operation, "--transport", transport,
        "--payload-bytes", str(payload), *extra,
    ]


class Server:
    """A running server; waits for its endpoint file and stops it with SIGTERM."""

    def __init__(self, tmp_path, operation, transport, payload=0, *extra):
        self.endpoint_file = tmp_path / "endpoint"
        self.output = tmp_path / "server.result"
        self.proc = subprocess.Popen(
            cell_args("server", operation, transport, payload,
                      "--endpoint-file", str(self.endpoint_file), "--output", str(self.output),
                      *extra),
            stderr=subprocess.PIPE, text=True,
        )
        deadline = time.monotonic() + HANG_S
        while not self.endpoint_file.exists():
            assert self.proc.poll() is None, f"server exited: {self.proc.stderr.read()}"
            assert time.monotonic() < deadline, "server did not publish its endpoint"
            time.sleep(0.01)
        self.endpoint = self.endpoint_file.read_text().strip()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=HANG_S)
        return self.proc.returncode, err


def run_client(tmp_path, server, operation, transport, payload=0, *extra, samples=200):
    output = tmp_path / "client.result"
    proc = subprocess.run(
        cell_args("client", operation, transport, payload,
                  "--endpoint-file", str(server.endpoint_file), "--output", str(output),
                  "--samples", str(samples), "--warmup", "20", *extra),
        capture_output=True, text=True, timeout=60,
    )
    return proc, output


def test_describe():
    out = subprocess.run([str(DRIVER), "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["contract"] == 1 and d["driver"] == "rawtcp"
    assert d["operations"]["octets"] == {"payload": True}
    assert d["modes"] == {"remote": ["tcp", "uds"]} and d["host_local"] == ["uds"]
    assert d["operations"]["octets_out"] == d["operations"]["octets_inout"] == {"payload": True}
    assert d["max_servants"] == 1 and "max_threads" not in d
    assert d["operations"]["fanout"] == {"payload": True} and d["max_subscribers"] == 64


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("operation", ["roundtrip", "ping"])
def test_ping_pong(tmp_path, operation, transport):
    server = Server(tmp_path, operation, transport)
    scheme = "tcp://127.0.0.1:" if transport == "tcp" else "uds:///"
    assert server.endpoint.startswith(scheme)

    client, output = run_client(tmp_path, server, operation, transport, 0, "--batch", "auto")
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["role"] == "client" and header["operation"] == operation
    assert header["batch_size"] >= 1

    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    if transport == "uds":
        assert not Path(server.endpoint.removeprefix("uds://")).parent.exists()


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20])
def test_octets_payload_arrives_intact(tmp_path, transport, payload):
    server = Server(tmp_path, "octets", transport, payload, "--option", "verify=1")
    client, output = run_client(tmp_path, server, "octets", transport, payload,
                                "--option", "verify=1", samples=50)
    assert client.returncode == 0, client.stderr
    header, _ = read_result(output)
    assert header["payload_bytes"] == payload and header["sample_count"] == 50
    status, err = server.stop()
    assert status == 0, err


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("payload", [0, 1, 4096, 65536])
@pytest.mark.parametrize("operation", ["octets_out", "octets_inout"])
def test_replies_arrive_intact(tmp_path, operation, transport, payload):
    # verify=1: the server checks the request, the client the reply.
    server = Server(tmp_path, operation, transport, payload, "--option", "verify=1")
    client, output = run_client(tmp_path, server, operation, transport, payload,
                                "--option", "verify=1", samples=50)
    assert client.returncode == 0, client.stderr
    assert read_result(output)[0]["sample_count"] == 50
    status, err = server.stop()
    assert status == 0, err


def test_octets_out_reply_is_the_servers_pattern(tmp_path):
    server = Server(tmp_path, "octets_out", "tcp", 600)
    port = int(server.endpoint.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(struct.pack("!I", 600))
        reply = b""
        while len(reply) < 604:
            reply += s.recv(604 - len(reply))
    assert struct.unpack("!I", reply[:4]) == (600,)
    assert reply[4:] == bytes(250 - i % 251 for i in range(600))
    assert server.stop()[0] == 0


def test_inout_verify_fails_loudly_on_a_wrong_payload(tmp_path):
    server = Server(tmp_path, "octets_inout", "tcp", 16, "--option", "verify=1")
    port = int(server.endpoint.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(struct.pack("!I", 16) + bytes(16))  # zeros, not the pattern
        assert s.recv(1) == b""  # no reply: the server gave up on the connection
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "octets_inout: payload mismatch at byte 1 of 16" in server.proc.stderr.read()


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("operation", ["roundtrip", "octets_inout"])
def test_threads_write_one_series_each(tmp_path, operation, threads):
    payload = 0 if operation == "roundtrip" else 1000
    server = Server(tmp_path, operation, "tcp", payload, "--option", "verify=1")
    client, output = run_client(tmp_path, server, operation, "tcp", payload,
                                "--threads", str(threads), "--option", "verify=1", samples=100)
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert len(samples) == 100 * threads
    if threads > 1:
        assert [s["count"] for s in header["series"]] == [100] * threads
    assert server.stop()[0] == 0


def test_one_connection_per_thread(tmp_path):
    server = Server(tmp_path, "ping", "tcp")
    port = int(server.endpoint.rsplit(":", 1)[1])
    seen = RAWTCP.connections_per_port(tmp_path, server.endpoint_file, [port],
                                       *cell("ping", "tcp"), "--threads", "3")
    assert server.stop()[0] == 0
    assert seen == [3]


def test_servants_are_not_supported(tmp_path):
    proc = subprocess.run(
        cell_args("client", "ping", "tcp", 0, "--endpoint-file", str(tmp_path / "e"),
                  "--servants", "2"),
        capture_output=True, text=True)
    assert proc.returncode == 2
    assert "--servants 2: rawtcp supports at most 1" in proc.stderr


def test_verify_fails_loudly_on_a_wrong_payload(tmp_path):
    server = Server(tmp_path, "octets", "tcp", 16, "--option", "verify=1")
    port = int(server.endpoint.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(struct.pack("!I", 16) + bytes(16))  # zeros, not the pattern
        assert s.recv(1) == b"\x00"  # status: mismatch
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "payload mismatch at byte 1 of 16" in server.proc.stderr.read()


def test_server_survives_a_client_that_dies(tmp_path):
    server = Server(tmp_path, "octets", "tcp", 100)
    port = int(server.endpoint.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(struct.pack("!I", 100) + bytes(10))  # closes mid-message
    client, _ = run_client(tmp_path, server, "octets", "tcp", 100)
    assert client.returncode == 0, client.stderr
    status, err = server.stop()
    assert status == 0
    assert "warning: connection ended" in err


def test_unknown_option_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        cell_args("client", "ping", "tcp", 0, "--endpoint-file", str(tmp_path / "e"),
                  "--option", "colour=1"),
        capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("mwbench-driver-rawtcp: error: --option colour")
    assert "allowed: nodelay, receive, stall_every_ms, stall_ms, verify, fault" in proc.stderr


def test_collocated_is_not_supported(tmp_path):
    proc = subprocess.run(cell_args("collocated", "ping", "inproc"), capture_output=True, text=True)
    assert proc.returncode == 2
    assert "mode 'collocated' is not supported by rawtcp (supported modes: remote)" in proc.stderr


def test_payload_for_ping_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        cell_args("client", "ping", "tcp", 8, "--endpoint-file", str(tmp_path / "e")),
        capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert "--payload-bytes 8" in proc.stderr


def test_fault_crash_and_hang(tmp_path):
    crash = Server(tmp_path, "ping", "tcp", 0, "--option", "fault=crash")
    assert crash.proc.wait(timeout=HANG_S) == -signal.SIGABRT

    (tmp_path / "endpoint").unlink()
    hang = Server(tmp_path, "ping", "tcp", 0, "--option", "fault=hang")
    hang.proc.send_signal(signal.SIGTERM)
    with pytest.raises(subprocess.TimeoutExpired):
        hang.proc.wait(timeout=0.5)  # a hung server ignores SIGTERM: SIGKILL it
    hang.proc.kill()
    assert hang.proc.wait(timeout=HANG_S) == -signal.SIGKILL


def test_priority_and_cpu_are_recorded(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("SCHED_FIFO needs root or CAP_SYS_NICE")
    server = Server(tmp_path, "ping", "uds", 0, "--cpu", "0", "--priority", "10")
    client, output = run_client(tmp_path, server, "ping", "uds", 0, "--cpu", "0",
                                "--priority", "10")
    assert client.returncode == 0, client.stderr
    process = read_result(output)[0]["process"]
    assert process["policy"] == "SCHED_FIFO" and process["priority"] == 10
    assert process["cpu_requested"] == process["cpu_first"] == process["cpu_last"] == 0
    assert server.stop()[0] == 0
    assert read_result(server.output)[0]["process"]["policy"] == "SCHED_FIFO"


# ---- fanout (docs/driver-contract-fanout.md) -------------------------------

RAWTCP = Driver("rawtcp")


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("subscribers, processes", [(1, 1), (4, 1), (4, 4)])
def test_fanout_reaches_every_subscriber(tmp_path, transport, subscribers, processes):
    header, samples, server_headers = run_fanout(
        RAWTCP, tmp_path, cell("fanout", transport), subscribers, processes)
    assert len(samples) == 200 and header["operation"] == "fanout"
    assert header["fanout"] == {"subscribers": subscribers, "subscriber_processes": processes,
                                "events_published": 220}
    share = subscribers // processes
    assert [h["fanout"]["first_subscriber"] for h in server_headers] == \
        list(range(0, subscribers, share))
    assert all(h["fanout"]["subscribers"] == share for h in server_headers)


def test_fanout_payload_arrives_intact_in_batches(tmp_path):
    # verify=1: every subscriber checks every byte of every event.
    header, _, _ = run_fanout(RAWTCP, tmp_path, cell("fanout", "tcp", 1000, "--option", "verify=1"),
                              4, 2, "--batch", "4", samples=100)
    assert header["payload_bytes"] == 1000 and header["batch_size"] == 4
    assert header["fanout"]["events_published"] == 20 + 100 * 4


def test_fanout_uds_sockets_are_removed(tmp_path):
    (server,) = fanout_subscribers(RAWTCP, tmp_path, cell("fanout", "uds"), 3, 1)
    paths = [Path(e.removeprefix("uds://")) for e in server.endpoint.read_text().split()]
    assert len(paths) == 3 and all(p.exists() for p in paths)
    assert server.stop()[0] == 0
    assert not any(p.parent.exists() for p in paths)


def start_publisher(tmp_path, servers, subscribers, *extra, timeout_s=2):
    """The publisher of a fan-out, started so that it announces its first sample
    (`wait_until_measuring`)."""
    endpoints = [a for s in servers for a in ("--endpoint-file", str(s.endpoint))]
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [str(DRIVER), "--role", "client", *cell("fanout", "tcp"), *endpoints,
         "--subscribers", str(subscribers), "--output", str(tmp_path / "client.result"),
         "--timeout", str(timeout_s), *extra],
        stderr=subprocess.PIPE, text=True, env=env)
    client.measuring = flag
    return client


def test_fanout_fails_when_a_subscriber_process_is_killed(tmp_path):
    servers = fanout_subscribers(RAWTCP, tmp_path, cell("fanout", "tcp"), 4, 4)
    client = start_publisher(tmp_path, servers, 4, "--samples", "5000000", "--warmup", "0")
    wait_until_measuring(client, client.measuring)
    servers[2].proc.kill()
    _, err = client.communicate(timeout=HANG_S)
    assert client.returncode == 1
    assert err.startswith("mwbench-driver-rawtcp: error: fanout: subscriber 2")
    assert not (tmp_path / "client.result").exists()
    servers[2].proc.wait()
    for server in servers[:2] + servers[3:]:
        assert server.stop()[0] == 0


@pytest.mark.parametrize("when", ["before the handshake", "while measuring"])
def test_fanout_times_out_on_a_silent_subscriber(tmp_path, when):
    # SIGSTOP: the subscriber's connection stays open, its replies never come.
    servers = fanout_subscribers(RAWTCP, tmp_path, cell("fanout", "tcp"), 4, 2)
    if when == "before the handshake":
        servers[1].proc.send_signal(signal.SIGSTOP)
    client = start_publisher(tmp_path, servers, 4, "--samples", "5000000", "--warmup", "0")
    if when == "while measuring":
        wait_until_measuring(client, client.measuring)
        servers[1].proc.send_signal(signal.SIGSTOP)
    _, err = client.communicate(timeout=HANG_S)
    servers[1].proc.send_signal(signal.SIGCONT)
    assert client.returncode == 1
    if when == "before the handshake":
        assert "2 of 4 subscribers (2, 3) did not answer within 2 s (--timeout)" in err
    else:
        # The signal may come between the replies of the process's two subscribers.
        assert re.search(r"no reply for 2 s \(--timeout\); [12] of 4 subscribers have not "
                         r"replied to event \d+ \((2, 3|2|3)\)$", err.rstrip()), err
    for server in servers:
        assert server.stop()[0] == 0


def test_fanout_endpoint_files_out_of_order(tmp_path):
    servers = fanout_subscribers(RAWTCP, tmp_path, cell("fanout", "tcp"), 2, 2)
    client = start_publisher(tmp_path, servers[::-1], 2)
    _, err = client.communicate(timeout=HANG_S)
    assert client.returncode == 1
    assert "the connection to subscriber 0 reached subscriber 1" in err
    for server in servers:
        assert server.stop()[0] == 0


def test_fanout_wrong_payload_size_stops_the_subscriber(tmp_path):
    servers = fanout_subscribers(RAWTCP, tmp_path, cell("fanout", "tcp", 16), 1, 1)
    proc, _ = RAWTCP.run("client", tmp_path, *cell("fanout", "tcp", 8),
                         "--endpoint-file", str(servers[0].endpoint))
    assert proc.returncode == 1 and "fanout: subscriber 0" in proc.stderr
    assert servers[0].proc.wait(timeout=HANG_S) == 1
    assert "event 1 carries 8 bytes, expected 16 (--payload-bytes)" in servers[0].proc.stderr.read()


@pytest.mark.parametrize("args, message", [
    (["--threads", "2"], "--threads 2: fanout has one publishing thread"),
    (["--subscribers", "65"], "--subscribers 65"),
])
@pytest.mark.parametrize("role", ["server", "client"])
def test_fanout_usage_errors(tmp_path, role, args, message):
    proc = subprocess.run(
        cell_args(role, "fanout", "tcp", 0, "--endpoint-file", str(tmp_path / "e"), *args),
        capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
