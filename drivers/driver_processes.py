"""What every driver's tests need of a driver process: its result file and its sockets.

Standard library only. pytest puts this folder on the import path (`pythonpath`
in pyproject.toml), so `drivers/<name>/test_<name>.py` imports it by name.
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest


def read_result(path):
    """A minimal, strict reader of a result file (the full one is the orchestrator's)."""
    lines = Path(path).read_text().split("\n")
    assert lines[0] == "mwbench-result 1"
    header = json.loads(lines[1])
    count = header["sample_count"]
    samples = [int(s) for s in lines[2:2 + count]]
    assert lines[2 + count:] == ["end", ""], "missing end line or wrong sample count"
    assert all(s >= 0 for s in samples)
    return header, samples


def socket_inodes(pid):
    """Inodes of the sockets `pid` has open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def established_connections(pid, port):
    """TCP connections of `pid` to `port` on loopback that are ESTABLISHED, over IPv4
    or IPv6: a dual-stack socket connected to 127.0.0.1 (gRPC's, for one) is listed
    in net/tcp6 as ::ffff:127.0.0.1."""
    inodes = socket_inodes(pid)
    count = 0
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            remote, state, inode = fields[2], fields[3], fields[9]
            if state == "01" and inode in inodes and int(remote.split(":")[1], 16) == port:
                count += 1
    return count


class DriverServer:
    """A driver server process, started and waited for as the orchestrator does."""

    def __init__(self, driver, tmp_path, args, env=None):
        self.endpoint = tmp_path / "endpoint"
        self.output = tmp_path / "server.result"
        self.proc = subprocess.Popen(
            [driver, "--role", "server", "--endpoint-file", self.endpoint,
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
