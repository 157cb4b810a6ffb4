"""Integration tests of mwbench-driver-omniorb: real server and client processes.

Run from the repository root after building:  python3 -m pytest drivers/omniorb
The driver is looked up in $MWBENCH_BUILD_DIR (default <repo>/build). Servants,
threads and the memory limit are in test_omniorb_scaling.py.
"""

import json
import os
import signal
import subprocess
import time

import pytest
from driver_processes import HANG_S, Driver, cell, read_result
from omniorb_processes import (
    DRIVER,
    QUICK,
    Server,
    collocated,
    listening_tcp_addresses,
    run_client,
    run_pair,
)

pytestmark = pytest.mark.skipif(not DRIVER.exists(), reason=f"{DRIVER} not built")


def test_describe_reports_omniorb_version():
    done = subprocess.run([DRIVER, "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(done.stdout)
    assert d["middleware"] == "omniORB"
    assert d["middleware_version"].startswith("4.")
    assert d["modes"] == {"remote": ["tcp", "uds"], "collocated": ["inproc"]}
    assert set(d["options"]) >= {"threading", "pool_size", "verify", "connections", "target"}
    assert d["operations"] == {
        "roundtrip": {"payload": False}, "ping": {"payload": False},
        "octets": {"payload": True}, "octets_out": {"payload": True},
        "octets_inout": {"payload": True}, "records": {"payload": True}}
    assert "max_threads" not in d and "max_servants" not in d


@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("threading", ["per-connection", "pool"])
def test_remote_roundtrip(tmp_path, transport, threading):
    header, samples = run_pair(tmp_path, [
        "--operation", "roundtrip", "--transport", transport,
        "--option", f"threading={threading}"])
    assert header["sample_count"] == 200 and all(s > 0 for s in samples)
    assert header["options"] == {"threading": threading}
    assert header["transport"] == transport


def test_pool_size_option(tmp_path):
    header, _ = run_pair(tmp_path, [
        "--operation", "ping", "--transport", "tcp",
        "--option", "threading=pool", "--option", "pool_size=2"])
    assert header["options"] == {"threading": "pool", "pool_size": "2"}


def test_tcp_server_listens_on_loopback_only(tmp_path):
    server = Server(tmp_path, ["--operation", "ping", "--transport", "tcp"])
    addresses = listening_tcp_addresses(server.proc.pid)
    status, err = server.stop()
    assert status == 0, err
    assert addresses and all(a.startswith("127.0.0.1:") for a in addresses), addresses


def test_collocated_roundtrip(tmp_path):
    output = tmp_path / "collocated.result"
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "roundtrip", "--transport", "inproc",
         "--batch", "auto", "--output", output, *QUICK],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and header["batch_size"] >= 1
    assert len(samples) == 200


def test_collocated_listens_on_loopback_only(tmp_path):
    # Long enough to look at its sockets, then stopped as a user would.
    proc = subprocess.Popen(
        [DRIVER, "--role", "collocated", "--operation", "ping", "--transport", "inproc",
         "--samples", "10", "--warmup", "1000000000000"],
        stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG_S
    while not (addresses := listening_tcp_addresses(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=HANG_S)
    assert addresses and all(a.startswith("127.0.0.1:") for a in addresses), addresses


@pytest.mark.parametrize("size", [0, 1, 4096, 65536])
@pytest.mark.parametrize("transport", ["tcp", "uds"])
def test_remote_octets_verified(tmp_path, transport, size):
    header, _ = run_pair(tmp_path, [
        "--operation", "octets", "--transport", transport,
        "--payload-bytes", str(size), "--option", "verify=1"])
    assert header["payload_bytes"] == size


@pytest.mark.parametrize("size", [0, 1, 4096, 65536])
def test_collocated_octets_verified(tmp_path, size):
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "octets", "--transport", "inproc",
         "--payload-bytes", str(size), "--option", "verify=1", *QUICK],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_endpoint_is_a_corbaloc_base(tmp_path):
    server = Server(tmp_path, ["--operation", "ping", "--transport", "tcp"])
    endpoint = server.endpoint.read_text().strip()
    assert server.stop()[0] == 0
    assert endpoint.startswith("corbaloc::1.2@127.0.0.1:") and endpoint.endswith("/")


@pytest.mark.parametrize("size", [0, 1, 4096, 65536])
@pytest.mark.parametrize("transport", ["tcp", "uds"])
@pytest.mark.parametrize("operation", ["octets_out", "octets_inout", "records"])
def test_remote_payload_operations_verified(tmp_path, operation, transport, size):
    # verify=1: the servant checks what arrives, the client what comes back.
    header, samples = run_pair(tmp_path, [
        "--operation", operation, "--transport", transport,
        "--payload-bytes", str(size), "--option", "verify=1"])
    assert header["operation"] == operation and header["payload_bytes"] == size
    assert len(samples) == 200


@pytest.mark.parametrize("size", [0, 1, 4096, 65536])
@pytest.mark.parametrize("operation", ["octets_out", "octets_inout", "records"])
def test_collocated_payload_operations_verified(operation, size):
    done = collocated(["--operation", operation, "--payload-bytes", str(size),
                       "--option", "verify=1", *QUICK])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("operation", "message"), [
    ("octets_out", "octets_out request for 4095 bytes, expected 4096"),
    ("octets_inout", "octets_inout payload of 4095 bytes, expected 4096"),
    ("records", "records: 127 records, expected 128"),
])
def test_payload_mismatch_fails_loudly(tmp_path, operation, message):
    server = Server(tmp_path, ["--operation", operation, "--transport", "tcp",
                               "--payload-bytes", "4096", "--option", "verify=1"])
    client, _ = run_client(tmp_path, server, [
        "--operation", operation, "--transport", "tcp", "--payload-bytes", "4095",
        "--option", "verify=1", *QUICK])
    status, err = server.stop()
    assert client.returncode == 1
    assert "rejected a payload (verify=1)" in client.stderr
    assert status == 1
    assert message in err


def test_octets_mismatch_fails_loudly(tmp_path):
    # The server expects 4096 bytes; a client sending 4095 must fail, and so
    # must the server when it stops.
    server = Server(tmp_path, ["--operation", "octets", "--transport", "tcp",
                               "--payload-bytes", "4096", "--option", "verify=1"])
    client, _ = run_client(tmp_path, server, [
        "--operation", "octets", "--transport", "tcp", "--payload-bytes", "4095",
        "--option", "verify=1", *QUICK])
    status, err = server.stop()
    assert client.returncode == 1
    assert "rejected a payload (verify=1)" in client.stderr
    assert status == 1
    assert "octets payload of 4095 bytes, expected 4096" in err


@pytest.mark.parametrize("option, message", [
    ("no_such_option=1", "--option no_such_option: unknown key"),
    ("threading=fibers", "allowed values: per-connection, pool"),
])
def test_wrong_options_are_usage_errors(tmp_path, option, message):
    Driver("omniorb").assert_usage_error(tmp_path, "collocated", *cell("ping", "inproc"),
                                         "--option", option, message=message)


@pytest.mark.parametrize("threading", ["per-connection", "pool"])
def test_unix_server_sigterm_exits_cleanly(tmp_path, threading):
    # A private TMPDIR, so that a socket directory left behind shows.
    socket_tmp = tmp_path / "t"
    socket_tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(socket_tmp))
    server = Server(tmp_path, ["--operation", "roundtrip", "--transport", "uds",
                               "--option", f"threading={threading}"], env=env)
    assert [p.name[:16] for p in socket_tmp.iterdir()] == ["mwbench-omniorb-"]
    client, _ = run_client(tmp_path, server, [
        "--operation", "roundtrip", "--transport", "uds", *QUICK])
    assert client.returncode == 0, client.stderr
    status, err = server.stop()
    assert status == 0, err
    assert list(socket_tmp.iterdir()) == []
    header, samples = read_result(server.output)
    assert header["role"] == "server" and samples == []


def test_client_of_hung_server_fails_within_timeout(tmp_path):
    server = Server(tmp_path, ["--operation", "ping", "--transport", "tcp",
                               "--option", "fault=hang"])
    start = time.monotonic()
    done = subprocess.run(
        [DRIVER, "--role", "client", "--endpoint-file", server.endpoint, "--timeout", "1",
         "--operation", "ping", "--transport", "tcp", *QUICK],
        capture_output=True, text=True, timeout=HANG_S)
    took = time.monotonic() - start
    server.proc.kill()  # a hung server ignores SIGTERM, by design of the fault
    server.proc.communicate()
    assert done.returncode == 1
    assert "TIMEOUT" in done.stderr
    assert took < 5


def test_client_with_wrong_transport_fails(tmp_path):
    # A unix client must not quietly reach a TCP server.
    server = Server(tmp_path, ["--operation", "ping", "--transport", "tcp"])
    client, _ = run_client(tmp_path, server, ["--operation", "ping", "--transport", "uds", *QUICK])
    server.stop()
    assert client.returncode == 1
    assert "TRANSIENT" in client.stderr
