"""Integration tests of mwbench-driver-omniorb: real server and client processes.

Run from the repository root after building:  python3 -m pytest drivers/omniorb
The driver is looked up in $MWBENCH_BUILD_DIR (default <repo>/build).
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = BUILD / "drivers" / "omniorb" / "mwbench-driver-omniorb"

# Few calls: these tests check behaviour, not speed.
QUICK = ["--samples", "200", "--warmup", "20"]

pytestmark = pytest.mark.skipif(not DRIVER.exists(), reason=f"{DRIVER} not built")


def read_result(path):
    lines = Path(path).read_text().splitlines()
    assert lines[0] == "mwbench-result 1"
    header = json.loads(lines[1])
    samples = [int(x) for x in lines[2:-1]]
    assert lines[-1] == "end"
    assert len(samples) == header["sample_count"]
    return header, samples


def listening_tcp_addresses(pid):
    """Local addresses of the TCP sockets `pid` listens on, as 'a.b.c.d:port'."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:  # 0A: LISTEN
                continue
            addr, port = local.split(":")
            if table == "tcp":
                ip = ".".join(str(int(addr[i : i + 2], 16)) for i in (6, 4, 2, 0))
            else:
                ip = "ipv6:" + addr
            found.append(f"{ip}:{int(port, 16)}")
    return found


class Server:
    """A driver server process, started and waited for as the orchestrator does."""

    def __init__(self, tmp_path, args, env=None):
        self.endpoint = tmp_path / "endpoint"
        self.output = tmp_path / "server.result"
        self.proc = subprocess.Popen(
            [DRIVER, "--role", "server", "--endpoint-file", self.endpoint,
             "--output", self.output, *args],
            stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 10
        while not self.endpoint.exists():
            if self.proc.poll() is not None:
                pytest.fail(f"server exited {self.proc.returncode}: {self.proc.stderr.read()}")
            if time.monotonic() > deadline:
                self.proc.kill()
                pytest.fail("server published no endpoint within 10 s")
            time.sleep(0.01)

    def stop(self):
        """SIGTERM, as the orchestrator sends it; returns (exit status, stderr)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail("server did not exit within 10 s of SIGTERM")
        return self.proc.returncode, err


def run_client(tmp_path, server, args):
    output = tmp_path / "client.result"
    done = subprocess.run(
        [DRIVER, "--role", "client", "--endpoint-file", server.endpoint,
         "--output", output, "--timeout", "5", *args],
        capture_output=True, text=True, timeout=60)
    return done, output


def run_pair(tmp_path, args):
    """Server and client with the same arguments; both must succeed."""
    server = Server(tmp_path, args)
    client, output = run_client(tmp_path, server, [*args, *QUICK])
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    return read_result(output)


def test_describe_reports_omniorb_version():
    done = subprocess.run([DRIVER, "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(done.stdout)
    assert d["middleware"] == "omniORB"
    assert d["middleware_version"].startswith("4.")
    assert d["modes"] == {"remote": ["tcp", "unix"], "collocated": ["inproc"]}
    assert set(d["options"]) >= {"threading", "pool_size", "verify"}


@pytest.mark.parametrize("transport", ["tcp", "unix"])
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
    deadline = time.monotonic() + 10
    while not (addresses := listening_tcp_addresses(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=10)
    assert addresses and all(a.startswith("127.0.0.1:") for a in addresses), addresses


@pytest.mark.parametrize("size", [0, 1, 4096, 65536])
@pytest.mark.parametrize("transport", ["tcp", "unix"])
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
    assert "rejected an octets payload" in client.stderr
    assert status == 1
    assert "octets payload of 4095 bytes, expected 4096" in err


def test_unknown_option_is_a_usage_error():
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "ping", "--transport", "inproc",
         "--option", "no_such_option=1"],
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("mwbench-driver-omniorb: error:")
    assert "no_such_option" in done.stderr and "threading" in done.stderr


def test_bad_threading_value_is_a_usage_error():
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "ping", "--transport", "inproc",
         "--option", "threading=fibers"],
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "threading=fibers" in done.stderr and "per-connection or pool" in done.stderr


@pytest.mark.parametrize("threading", ["per-connection", "pool"])
def test_unix_server_sigterm_exits_cleanly(tmp_path, threading):
    # A private TMPDIR, so that a socket directory left behind shows.
    socket_tmp = tmp_path / "t"
    socket_tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(socket_tmp))
    server = Server(tmp_path, ["--operation", "roundtrip", "--transport", "unix",
                               "--option", f"threading={threading}"], env=env)
    assert [p.name[:16] for p in socket_tmp.iterdir()] == ["mwbench-omniorb-"]
    client, _ = run_client(tmp_path, server, [
        "--operation", "roundtrip", "--transport", "unix", *QUICK])
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
        capture_output=True, text=True, timeout=30)
    took = time.monotonic() - start
    server.proc.kill()  # a hung server ignores SIGTERM, by design of the fault
    server.proc.communicate()
    assert done.returncode == 1
    assert "TIMEOUT" in done.stderr
    assert took < 5


def test_client_with_wrong_transport_fails(tmp_path):
    # A unix client must not quietly reach a TCP server.
    server = Server(tmp_path, ["--operation", "ping", "--transport", "tcp"])
    client, _ = run_client(tmp_path, server, ["--operation", "ping", "--transport", "unix", *QUICK])
    server.stop()
    assert client.returncode == 1
    assert "TRANSIENT" in client.stderr
