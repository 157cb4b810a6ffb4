"""The background load: a real stress-ng started, recorded, stopped and reaped; its faults.

stress-ng is Debian's package (`make setup` installs it). The faults use a
stand-in program of the same name on PATH, which exits when told to.
"""

import os
import shutil
import subprocess
import time

import pytest

from mwbench import background
from mwbench.background import BackgroundLoad
from mwbench.processes import ChildFailure


@pytest.fixture(autouse=True)
def _fresh_version_cache():
    background.version.cache_clear()
    yield
    background.version.cache_clear()


def workers_of(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-s", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def test_stress_ng_runs_its_workers_and_is_reaped(tmp_path):
    assert shutil.which("stress-ng"), "stress-ng is not installed: `make setup` installs it"
    load = BackgroundLoad("cpu:2", cell_timeout_s=30, scratch=tmp_path)
    load.start()
    try:
        session = load.child.pid  # its own session: the session id is its pid
        deadline = time.monotonic() + 120  # only a hang exceeds it
        while len(workers_of(session)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers_of(session)) >= 3  # stress-ng and its two workers
        assert os.getsid(session) == session
        load.check("during the measurement")  # still running: no error
    finally:
        load.stop()
    assert load.child.exited()
    assert workers_of(session) == []
    argv = load.record["argv"]
    assert argv[0].endswith("stress-ng") and argv[1:] == ["--cpu", "2", "--timeout", "90s"]
    assert load.record["version"].startswith("stress-ng, version ")


def test_no_background_starts_nothing(tmp_path):
    load = BackgroundLoad("none", cell_timeout_s=30, scratch=tmp_path)
    load.start()
    load.check("during the measurement")
    load.stop()
    assert load.child is None and load.record is None


def test_a_missing_stress_ng_fails_with_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ChildFailure, match=r"background cpu:1 needs stress-ng, which is not "
                                           r"installed \(Debian: apt-get install stress-ng"):
        BackgroundLoad("cpu:1", 30, tmp_path).start()


def stand_in(tmp_path, monkeypatch, script: str) -> None:
    """A program called stress-ng that does what `script` says, first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "stress-ng"
    program.write_text("#!/bin/sh\n"
                       '[ "$1" = --version ] && { echo "stress-ng, version 0.0 (stand-in)";'
                       " exit 0; }\n" + script)
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")


def test_a_load_that_dies_at_once_fails_the_cell_with_its_errors(tmp_path, monkeypatch):
    stand_in(tmp_path, monkeypatch, "echo 'stress-ng: error: no cpu stressor' >&2\nexit 1\n")
    load = BackgroundLoad("cpu:1", 30, tmp_path)
    with pytest.raises(ChildFailure) as failure:
        load.start()
    message = str(failure.value)
    assert message.startswith("background load cpu:1: stress-ng exited with status 1 before "
                              "the measurement, so the cell did not run under the load it "
                              "asked for")
    assert "--- background stderr (last lines) ---\nstress-ng: error: no cpu stressor" in message
    assert load.record["version"] == "stress-ng, version 0.0 (stand-in)"


def test_a_load_that_dies_during_the_measurement_fails_the_cell(tmp_path, monkeypatch):
    # One worker, as stress-ng has; the load dies when the test says so.
    die = tmp_path / "die"
    stand_in(tmp_path, monkeypatch, f"sleep 600 &\nwhile [ ! -e {die} ]; do sleep 0.01; done\n"
                                    "kill -KILL $$\n")
    load = BackgroundLoad("cpu:1", 30, tmp_path)
    load.start()
    die.touch()
    load.child.process.wait(timeout=120)
    with pytest.raises(ChildFailure, match="stress-ng was killed by signal SIGKILL during the "
                                           "measurement"):
        load.check("during the measurement")
    load.stop()
