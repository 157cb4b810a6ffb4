"""Processes of mwbench-driver-omniorb for its tests: started and read as the orchestrator does.

The driver is looked up in $MWBENCH_BUILD_DIR (default <repo>/build). Standard
library only; imported by test_omniorb*.py, which pytest runs from this folder. What
every driver's tests share is in ../driver_processes.py.
"""

import json
import os
import subprocess
from pathlib import Path

from driver_processes import DriverServer, read_result
from proc_view import socket_inodes

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = BUILD / "drivers" / "omniorb" / "mwbench-driver-omniorb"


def sanitized_build():
    """Whether the build has AddressSanitizer, under which --memory-limit-mb is refused."""
    info = BUILD / "mwbench-build.json"
    return info.exists() and json.loads(info.read_text()).get("sanitize") == "ON"


# Few calls: these tests check behaviour, not speed.
QUICK = ["--samples", "200", "--warmup", "20"]

def listening_tcp_addresses(pid):
    """Local addresses of the TCP sockets `pid` listens on, as 'a.b.c.d:port'."""
    inodes = socket_inodes(pid)
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


class Server(DriverServer):
    """The omniorb driver's server (driver_processes.DriverServer)."""

    def __init__(self, tmp_path, args, env=None):
        super().__init__(DRIVER, tmp_path, args, env)


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


def collocated(args, timeout=60):
    """A collocated run with `args` (and no result file); returns the completed process."""
    return subprocess.run(
        [DRIVER, "--role", "collocated", "--transport", "inproc", *args],
        capture_output=True, text=True, timeout=timeout)
