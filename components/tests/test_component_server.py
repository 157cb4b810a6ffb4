"""Integration test of mwccm-component-server: a real process.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/tests
What needs a CORBA client (containers, components across two servers,
shutdown() on request, SIGTERM with components hosted) is covered by
two_servers_test.cpp (ctest).
"""

import os
import signal
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
SERVER = BUILD / "components" / "server" / "mwccm-component-server"


def wait_for(path, proc, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().startswith("IOR:"):
            return path.read_text().strip()
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.02)
    raise AssertionError(f"no IOR in {path}")


def test_writes_ior_and_stops_cleanly_on_sigterm(tmp_path):
    ior = tmp_path / "server.ior"
    proc = subprocess.Popen([SERVER, "--ior-file", ior], stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(ior, proc).startswith("IOR:")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_requires_an_ior_file():
    done = subprocess.run([SERVER], capture_output=True, text=True, timeout=10)
    assert done.returncode != 0
    assert "--ior-file" in done.stderr
