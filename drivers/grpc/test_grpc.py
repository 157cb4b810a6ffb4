"""End-to-end tests of mwbench-driver-grpc: real server, client and collocated processes."""

import subprocess
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    cell,
    measuring,
    read_result,
    wait_until_measuring,
    wrong_option_cases,
)
from open_loop_cells import open_loop_cut_off, run_open_cell

GRPC = Driver("grpc")
DRIVER = GRPC.program
pytestmark = GRPC.built_or_skipped()
start_server = GRPC.server
run = GRPC.run
run_client = GRPC.client


def uds_dir(endpoint):
    return Path(endpoint.removeprefix("unix:")).parent


def test_describe():
    d = GRPC.describe()
    assert d["driver"] == "grpc" and d["middleware"] == "gRPC"
    assert d["modes"] == {"remote": ["tcp", "uds"], "collocated": ["inproc"]}
    assert d["host_local"] == ["uds"]
    assert d["operations"] == {"roundtrip": {"payload": False}, "ping": {"payload": False},
                               "octets": {"payload": True}}
    assert set(d["options"]) == {"verify"}
    assert d["max_servants"] == 1 and "max_threads" not in d
    assert d["open_loop"] == ["roundtrip", "ping", "octets"]


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("operation", ["roundtrip", "ping"])
def test_remote_round_trip(tmp_path, operation, transport):
    server = start_server(tmp_path, *cell(operation, transport))
    endpoint = server.endpoint.read_text().strip()
    assert endpoint.startswith("ipv4:127.0.0.1:" if transport == "tcp" else "unix:/tmp/")
    client, output = run_client(tmp_path, server, *cell(operation, transport))
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["middleware_config"]["api"].startswith("synchronous")
    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    if transport == "uds":  # the socket file and its private directory are gone
        assert not uds_dir(endpoint).exists()


@pytest.mark.parametrize("operation", ["roundtrip", "ping"])
def test_collocated_round_trip(tmp_path, operation):
    proc, output = run("collocated", tmp_path, *cell(operation, "inproc"), "--batch", "auto")
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and len(samples) == 200
    assert "InProcessChannel" in header["middleware_config"]["channel"]


@pytest.mark.parametrize("transport", ["tcp", "uds", "inproc"])
@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20, 5 << 20])
def test_octets_payload_arrives_intact(tmp_path, transport, payload):
    # 5 MiB is above gRPC's default 4 MiB message limit, which the driver lifts.
    header, _ = GRPC.run_cell(tmp_path, *cell("octets", transport, payload, "--option", "verify=1"),
                            collocated=transport == "inproc", samples=20)
    assert header["payload_bytes"] == payload and header["sample_count"] == 20


def test_verify_fails_loudly_on_a_wrong_payload(tmp_path):
    # The client sends 8 bytes where the server expects 16.
    server = start_server(tmp_path, *cell("octets", "uds", 16, "--option", "verify=1"))
    endpoint = server.endpoint.read_text().strip()
    client, _ = run_client(tmp_path, server, *cell("octets", "uds", 8, "--option", "verify=1"))
    assert client.returncode == 1
    assert "the server found a payload mismatch" in client.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "octets: 8 bytes, expected 16 (verify=1)" in server.proc.stderr.read()
    assert not uds_dir(endpoint).exists()


@pytest.mark.parametrize("mode", ["remote", "collocated"])
def test_threads_write_one_series_each(tmp_path, mode):
    args = cell("octets", "tcp" if mode == "remote" else "inproc", 1000,
                "--option", "verify=1", "--threads", "3")
    header, samples = GRPC.run_cell(tmp_path, *args, collocated=mode == "collocated", samples=100)
    assert len(samples) == 300 and [s["count"] for s in header["series"]] == [100] * 3


def test_one_connection_per_thread(tmp_path):
    server = start_server(tmp_path, *cell("ping", "tcp"), "--threads", "3")
    port = int(server.endpoint.read_text().strip().rsplit(":", 1)[1])
    seen = GRPC.connections_per_port(tmp_path, server.endpoint, [port], *cell("ping", "tcp"),
                                     "--threads", "3")
    assert server.stop()[0] == 0
    assert seen == [3]


@pytest.mark.parametrize("role, args, message", [
    *wrong_option_cases("ping", "tcp",
                        [("verify=yes", "--option verify"), ("wait=spin", "--option wait")]),
    ("client", cell("ping", "ipc"), "ipc"),
    ("collocated", cell("ping", "uds"), "uds"),
    ("client", [*cell("ping", "tcp"), "--servants", "2"], "--servants 2"),
])
def test_wrong_options_transports_and_servants_are_usage_errors(tmp_path, role, args, message):
    GRPC.assert_usage_error(tmp_path, role, *args, message=message)


@pytest.mark.parametrize("transport", ["tcp", "uds"])
def test_server_stops_on_sigterm_with_a_client_connected(tmp_path, transport):
    server = start_server(tmp_path, *cell("roundtrip", transport))
    endpoint = server.endpoint.read_text().strip()
    output = tmp_path / "client.result"
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [str(DRIVER), "--role", "client", *cell("roundtrip", transport), "--endpoint-file",
         str(server.endpoint), "--output", str(output), "--samples", "5000000", "--warmup", "0"],
        stderr=subprocess.PIPE, text=True, env=env)
    wait_until_measuring(client, flag)
    status, err = server.stop()  # the client is in the middle of its calls
    assert status == 0, err
    assert client.wait(timeout=HANG_S) == 1  # its next call fails: the server is gone
    assert "mwbench-driver-grpc: error: TestMethod: " in client.stderr.read()
    if transport == "uds":
        assert not uds_dir(endpoint).exists()


@pytest.mark.parametrize("load", ["constant:2000", "poisson:2000"])
@pytest.mark.parametrize("operation, transport, payload", [
    ("roundtrip", "tcp", 0), ("ping", "uds", 0), ("roundtrip", "inproc", 0),
    ("octets", "tcp", 65536), ("octets", "inproc", 65536),
])
def test_open_loop_answers_every_call(tmp_path, load, operation, transport, payload):
    # The async stub sends on the schedule; the reader of the completion queue hands each
    # reply to the harness (its header checked by run_open_cell), payloads verified.
    args = cell(operation, transport, payload, "--option", "verify=1")
    header, _, _ = run_open_cell(GRPC, tmp_path, load, *args, collocated=transport == "inproc")
    assert header["middleware_config"]["api"].startswith("asynchronous client")


def test_open_loop_counts_the_calls_a_stopped_server_leaves_unanswered(tmp_path):
    # The calls in flight when the wait ends are cancelled (TryCancel) and drained; the
    # result still adds up.
    open_loop_cut_off(GRPC, tmp_path, *cell("ping", "tcp"))
