"""The daemon a driver declares (iceoryx's RouDi): started, recorded, stopped and cleaned per cell.

Real `mwbench run`s of tiny iceoryx specs with the real iox-roudi (Debian's
iceoryx), and a stand-in iox-roudi that exits at once, written into the
test's own directory and put first on PATH. Every test leaves no RouDi
process and none of its files behind, whatever happens: the `no_roudi`
fixture checks that nothing ran before and kills (by pid) any RouDi that a
failing run might leave.
"""

import glob
import json
import os
import signal
import socket
import sqlite3
import subprocess
import textwrap

import pytest

from conftest import mwbench_exe
from mwbench import daemon as daemon_module
from mwbench.drivers import describe, program_path

UNAVAILABLE = program_path("iceoryx").parent / "unavailable.txt"
pytestmark = [pytest.mark.skipif(
    not program_path("iceoryx").is_file() and UNAVAILABLE.is_file(),
    reason="iceoryx not built: " + (UNAVAILABLE.read_text().strip()
                                    if UNAVAILABLE.is_file() else "")),
    pytest.mark.once_per_machine]  # RouDi: one per machine (conftest.py)

SPEC = """\
suite: roudi
defaults: {launches: 1, warmup: 50, samples: 300, placement: unpinned, idle_hold: false}
experiments:
  - name: ping
    operation: roundtrip
    drivers: [iceoryx]
    transports: [shm]
    modes: [remote, collocated]
"""

MIXED = """\
suite: roudi-fails
defaults: {launches: 1, warmup: 50, samples: 300, placement: unpinned, idle_hold: false}
experiments:
  - name: ping
    operation: roundtrip
    drivers: [iceoryx, rawtcp]
    transports: [shm, tcp]
    modes: [collocated, remote]
"""


def roudi_pids() -> set[int]:
    """Every iox-roudi of the machine: only to skip, as the machine has one RouDi."""
    found = subprocess.run(["pgrep", "-x", "iox-roudi"], capture_output=True, text=True)
    return {int(pid) for pid in found.stdout.split()}


def leftovers(spec: dict) -> list[str]:
    return sorted(p for pattern in spec["leftovers"] for p in glob.glob(pattern))


@pytest.fixture
def roudi_spec() -> dict:
    info = describe("iceoryx")
    assert info.available, info.reason
    return info.daemon


@pytest.fixture
def no_roudi(roudi_spec, own_processes, other_live_runs):
    """The test's RouDi (tagged as the test's: conftest.py) is not left running, and its files
    are gone (the machine's: judged while no other mwbench run is live)."""
    if roudi_pids():
        pytest.skip("an iox-roudi these tests did not start is running")
    yield Roudi(roudi_spec, lambda: own_processes(("iox-roudi",)), other_live_runs)
    stray = own_processes(("iox-roudi",))
    for pid, _ in stray:  # a run left it behind
        os.kill(pid, signal.SIGKILL)
    if stray:
        daemon_module.remove_leftovers(roudi_spec)
    assert not stray


class Roudi:
    """What a test asks of its RouDi once its runs ended."""

    def __init__(self, spec, running, other_live_runs):
        self.spec, self.running, self.other_live_runs = spec, running, other_live_runs

    def assert_gone(self):
        assert self.running() == set()
        if not self.other_live_runs():
            assert leftovers(self.spec) == []


def run(tmp_path, spec_text, env=None):
    spec = tmp_path / "spec.yaml"
    spec.write_text(textwrap.dedent(spec_text))
    db = tmp_path / "m.db"
    completed = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(db)],
                               capture_output=True, text=True, timeout=300, check=False,
                               env=env)
    with sqlite3.connect(db) as connection:
        connection.row_factory = sqlite3.Row
        cells = connection.execute("SELECT * FROM cells ORDER BY id").fetchall()
    return completed, [dict(c) for c in cells]


def test_a_run_starts_roudi_per_cell_and_leaves_nothing(tmp_path, no_roudi):
    completed, cells = run(tmp_path, SPEC)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert [c["status"] for c in cells] == ["ok", "ok"]
    for cell in cells:
        record = json.loads(cell["daemon"])
        assert record["program"] == "iox-roudi"
        assert record["version"] == "RouDi version: 2.0.3"
        assert record["argv"][0].endswith("/iox-roudi")
        assert record["argv"][1:3] == ["--config-file",
                                       str(program_path("iceoryx").parent / "roudi_config.toml")]
        assert "cleanup_problem" not in record
    no_roudi.assert_gone()


def test_leftovers_of_a_crashed_run_are_removed_before_roudi_starts(tmp_path, no_roudi):
    # What a RouDi killed with SIGKILL leaves: its segments, a socket nobody reads, locks,
    # an application's socket. A stale management segment alone makes a new RouDi fail.
    planted = ["/dev/shm/iceoryx_mgmt", "/tmp/roudi.lock", "/tmp/iox-unique-roudi.lock",
               "/tmp/mwbench-iox-client-4194303", "/tmp/mwbench-iox-client-4194303.lock"]
    for path in planted:
        with open(path, "wb") as stale:
            stale.write(b"stale")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dead:
        dead.bind("/tmp/roudi")  # closed below: a socket file that nobody answers on
    assert not daemon_module.answers("/tmp/roudi")

    completed, cells = run(tmp_path, SPEC)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert [c["status"] for c in cells] == ["ok", "ok"]
    no_roudi.assert_gone()


def test_a_roudi_that_cannot_start_fails_its_cell_and_the_run_goes_on(tmp_path, no_roudi):
    fake = tmp_path / "bin" / "iox-roudi"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\n"
                    "echo 'fake iox-roudi: cannot reserve shared memory' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"}

    completed, cells = run(tmp_path, MIXED, env=env)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    by_driver = {(c["driver"], c["mode"]): c for c in cells}
    for mode in ("remote", "collocated"):
        failed = by_driver[("iceoryx", mode)]
        assert failed["status"] == "failed"
        assert failed["error"].startswith(
            "iox-roudi exited with status 1 before its socket /tmp/roudi answered")
        assert "fake iox-roudi: cannot reserve shared memory" in failed["error"]
    assert {c["status"] for c in cells if c["driver"] == "rawtcp"} == {"ok"}
    no_roudi.assert_gone()


def test_list_says_why_iceoryx_is_unavailable_without_iox_roudi(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    listed = subprocess.run([mwbench_exe(), "list"], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "PATH": str(empty), "COLUMNS": "400"})
    assert listed.returncode == 0, listed.stderr
    text = " ".join(listed.stdout.split())
    assert "iceoryx is not available: iox-roudi not found (Debian package iceoryx)" in text


@pytest.mark.parametrize("spec,problem", [
    ({"program": "x", "ready_socket": "/tmp/x", "leftovers": ["/home/me/file"]},
     "daemon.leftovers: /home/me/file is not a file under /dev/shm/ or /tmp/"),
    ({"program": "x", "ready_socket": "/tmp/x", "leftovers": ["/tmp/../etc/passwd"]},
     "daemon.leftovers: /tmp/../etc/passwd"),
    ({"program": "x", "ready_socket": "relative"}, "daemon.ready_socket"),
    ({"program": "", "ready_socket": "/tmp/x"}, "daemon.program"),
    ({"program": "x", "ready_socket": "/tmp/x", "args": "-c"}, "daemon.args"),
    ([], "daemon is not an object"),
])
def test_a_daemon_description_is_checked(spec, problem):
    assert problem in daemon_module.validate(spec)


def test_a_valid_daemon_description_passes(roudi_spec):
    assert daemon_module.validate(roudi_spec) is None
