"""Every way a run ends cleans up: stop signals, and `kill -9` followed by the next run.

Real `mwbench run`s of real drivers, each with its own state directory (the
ledgers) and temporary directory (the cells' scratch directories), so that
what a run leaves is exactly what these tests see. A test waits for what it
can observe: the run's ledger naming the processes of the cell it interrupts.
"""

import glob
import json
import os
import signal
import sqlite3
import subprocess
import textwrap
import time

import pytest

# What Fast DDS's drivers make in /dev/shm and remove with their participant: a run stopped
# by any means leaves none of them (drivers/fastdds/fastdds_shm.hpp). Autouse there, and so
# for every test here.
from driver_processes import no_fastdds_files_left  # noqa: F401

from conftest import mwbench_exe, seed_in_spec_order
from mwbench import daemon as daemon_module
from mwbench.drivers import describe, program_path
from mwbench.ledger import session_members, start_ticks
from mwbench.store import Store

# RouDi and Fast DDS's files are what the machine has once, and this module's fixtures judge
# them machine-wide (conftest.py).
pytestmark = pytest.mark.once_per_machine

POLL_S = 0.02
WAIT_S = 120  # for what must happen: a hang, not a busy machine, exceeds it

# One short cell, stored before the long one that is interrupted (a seed that runs them in
# the spec's order).
SPEC = """\
suite: long
seed: {seed}
defaults: {{launches: 1, warmup: 10, placement: unpinned, idle_hold: false}}
experiments:
  - {{name: short, operation: roundtrip, drivers: {driver}, transports: {transport},
     samples: 100}}
  - {{name: long, operation: roundtrip, drivers: {driver}, transports: {transport},
     samples: 100000000}}
"""
ICEORYX_BUILT = program_path("iceoryx").is_file()
FASTDDS_BUILT = program_path("fastdds").is_file()
DEPLOY_BUILT = program_path("deploy").is_file()
# The long cell deploys Basic SP in two component servers beside a node, all of which the
# deploy driver starts in process groups of their own.
DEPLOY_SPEC = """\
suite: long-deployment
seed: {seed}
defaults: {{launches: 1, warmup: 10, placement: unpinned, idle_hold: false}}
experiments:
  - {{name: short, operation: roundtrip, drivers: [rawtcp], transports: [tcp], samples: 100}}
  - {{name: long, operation: tick_to_display, drivers: [deploy], modes: [collocated],
     samples: 10000000, options: {{plan: [basic_sp_two_processes], hertz: [1000]}}}}
"""
DEPLOYED = 4  # the driver, the node and the two component servers
# The runs the current test started, for the fixture that stops what they left.
_started: list["Run"] = []


class Run:
    """A `mwbench run` in the background, with its own state and temporary directories."""

    def __init__(self, tmp_path, driver="rawtcp", transport="tcp", name="run", spec=SPEC):
        _started.append(self)
        self.seen: list[dict] = []  # the processes its ledger named
        self.folder = tmp_path / name
        self.folder.mkdir()
        self.env = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state"),
                    "TMPDIR": str(tmp_path / "tmp")}
        (tmp_path / "tmp").mkdir(exist_ok=True)
        self.state = tmp_path / "state"
        self.db = self.folder / "m.db"
        spec_text, spec = spec, self.folder / "spec.yaml"
        spec.write_text(spec_text.format(driver=driver, transport=transport,
                                         seed=seed_in_spec_order(2)))
        self.process = subprocess.Popen(
            [mwbench_exe(), "run", str(spec), "--db", str(self.db)], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=self.env)

    def ledger(self) -> dict | None:
        try:
            return json.loads((self.state / f"run-{self.process.pid}.json").read_text())
        except (OSError, ValueError):
            return None

    def wait_for_long_cell(self, roles=("client", "server")) -> dict:
        """The ledger once the long cell's processes (`roles`) are running."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            ledger = self.ledger()
            running = {p["role"] for p in (ledger or {}).get("processes", [])}
            if ledger and set(roles) <= running and _cells(self.db) == 1:
                self.seen += ledger["processes"]
                return ledger
            assert self.process.poll() is None, self.process.communicate()
            time.sleep(POLL_S)
        pytest.fail(f"the long cell's {roles} did not start within {WAIT_S} s")

    def finish(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=WAIT_S)
        return self.process.returncode, out, err


def _cells(db) -> int:
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM cells").fetchone()[0]
    except sqlite3.Error:
        return 0


def alive(process: dict) -> bool:
    return start_ticks(process["pid"]) == process["start_ticks"]


def run_status(db) -> tuple[str, str]:
    """(status as stored, status as the store reads it) of the database's one run."""
    store = Store.open_existing(db)
    try:
        row = store.run(store.latest_run_id())
        return row["status"], Store.status(row)
    finally:
        store.close()


def roudi_leftovers() -> list[str]:
    spec = describe("iceoryx").daemon
    return sorted(p for pattern in spec["leftovers"] for p in glob.glob(pattern))


def roudi_running() -> bool:
    """Whether an iox-roudi runs on the machine (a zombie that nobody reaps, its parent
    killed, does not). Only to skip: the machine has one RouDi, and iceoryx cells cannot
    run beside another's."""
    found = subprocess.run(["pgrep", "-x", "iox-roudi"], capture_output=True, text=True)
    return any(start_ticks(int(pid)) is not None for pid in found.stdout.split())


@pytest.fixture
def no_roudi():
    """The test's own RouDi (its runs' ledgers name it) is not left running; one that is,
    is stopped, and its files removed."""
    if ICEORYX_BUILT and roudi_running():
        pytest.skip("an iox-roudi these tests did not start is running")
    _started.clear()
    yield
    daemons = [p for run in _started for p in run.seen if p["role"] == "daemon"]
    _started.clear()
    stray = [p for p in daemons if alive(p)]
    for process in stray:
        os.killpg(process["pid"], signal.SIGKILL)
    if stray:
        daemon_module.remove_leftovers(describe("iceoryx").daemon)
    assert not stray, "a test left its iox-roudi running"


def assert_no_roudi_files(other_live_runs):
    """RouDi's files are the machine's: judged only while no other mwbench run is live."""
    if not other_live_runs():
        assert roudi_leftovers() == []


DRIVERS = [pytest.param("rawtcp", "tcp", ("client", "server"), id="rawtcp"),
           pytest.param("fastdds", "shm", ("client", "server"), id="fastdds",
                        marks=pytest.mark.skipif(not FASTDDS_BUILT, reason="fastdds not built")),
           pytest.param("iceoryx", "shm", ("client", "server", "daemon"), id="iceoryx",
                        marks=pytest.mark.skipif(not ICEORYX_BUILT, reason="iceoryx not built"))]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("driver, transport, roles", DRIVERS)
def test_a_stop_signal_stops_the_cell_cleans_up_and_keeps_finished_cells(
        tmp_path, no_roudi, other_live_runs, driver, transport, roles, signum):
    run = Run(tmp_path, driver, transport)
    ledger = run.wait_for_long_cell(roles)
    run.process.send_signal(signum)
    status, out, err = run.finish()

    assert status == 128 + signum, out + err
    assert "Traceback" not in out + err
    name = signal.Signals(signum).name
    assert f"interrupted by {name}: 1 finished launches of run 1 are stored" in out
    assert _cells(run.db) == 1  # the summary counts what the database holds
    assert run_status(run.db) == ("interrupted", "interrupted")
    assert not any(alive(p) for p in ledger["processes"]), "a process was left running"
    assert not any(os.path.exists(p) for p in ledger["paths"]), "a scratch directory was left"
    assert list((tmp_path / "tmp").iterdir()) == []
    assert list(run.state.iterdir()) == [], "the run's ledger was left"
    if driver == "iceoryx":
        assert_no_roudi_files(other_live_runs)


@pytest.mark.parametrize("driver, transport, roles", DRIVERS)
def test_what_a_killed_run_left_is_removed_by_mwbench_clean(tmp_path, no_roudi,
                                                            other_live_runs, driver,
                                                            transport, roles):
    run = Run(tmp_path, driver, transport)
    ledger = run.wait_for_long_cell(roles)
    run.process.kill()
    run.finish()
    # kill -9 leaves the cell's processes and files, and the run marked running ...
    assert any(alive(p) for p in ledger["processes"] if p["role"] == "server")
    assert all(os.path.exists(p) for p in ledger["paths"])
    # ... which its store reads as abandoned: its process is gone.
    assert run_status(run.db) == ("running", "abandoned")

    listed = subprocess.run([mwbench_exe(), "clean", "--dry-run"], capture_output=True,
                            text=True, env=run.env, timeout=WAIT_S)
    assert listed.returncode == 0, listed.stderr
    assert f"would remove: mwbench run 1 (pid {run.process.pid}, database" in listed.stdout
    assert any(alive(p) for p in ledger["processes"] if p["role"] == "server")

    cleaned = subprocess.run([mwbench_exe(), "clean"], capture_output=True, text=True,
                             env=run.env, timeout=WAIT_S)
    assert cleaned.returncode == 0, cleaned.stderr
    assert "removed: " in cleaned.stdout and "still runs" in cleaned.stdout
    assert not any(alive(p) for p in ledger["processes"])
    assert list((tmp_path / "tmp").iterdir()) == []
    assert list(run.state.iterdir()) == []
    assert run_status(run.db) == ("abandoned", "abandoned")
    if driver == "iceoryx":
        assert_no_roudi_files(other_live_runs)


@pytest.mark.parametrize("driver, transport, roles", DRIVERS)
def test_the_next_run_removes_what_a_killed_run_left(tmp_path, no_roudi, driver, transport,
                                                     roles):
    first = Run(tmp_path, driver, transport, name="first")
    ledger = first.wait_for_long_cell(roles)
    first.process.kill()
    first.finish()

    second = Run(tmp_path, driver, transport, name="second")
    second.wait_for_long_cell(roles)  # its own RouDi started: the dead run's was removed
    second.process.send_signal(signal.SIGTERM)
    status, out, err = second.finish()
    assert status == 128 + signal.SIGTERM, out + err
    assert f"removed: mwbench run 1 (pid {first.process.pid}" in out
    assert not any(alive(p) for p in ledger["processes"])
    assert run_status(first.db) == ("abandoned", "abandoned")
    assert list((tmp_path / "tmp").iterdir()) == []
    assert list(second.state.iterdir()) == []


@pytest.mark.skipif(not ICEORYX_BUILT, reason="iceoryx not built")
def test_a_roudi_of_another_live_run_is_named_as_that_runs(tmp_path, no_roudi):
    first = Run(tmp_path, "iceoryx", "shm", name="first")
    first.wait_for_long_cell(("client", "server", "daemon"))
    spec = tmp_path / "second.yaml"
    spec.write_text(textwrap.dedent("""\
        suite: second
        defaults: {launches: 1, warmup: 10, samples: 100, placement: unpinned, idle_hold: false}
        experiments:
          - {name: e, operation: roundtrip, drivers: iceoryx, transports: shm}
        """))
    second = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(tmp_path / "s.db")],
                            capture_output=True, text=True, env=first.env, timeout=WAIT_S)
    first.process.send_signal(signal.SIGTERM)
    first.finish()
    assert second.returncode == 1
    assert (f"iox-roudi is already running for mwbench run 1 (pid {first.process.pid}, "
            f"database {first.db}), which is still running") in " ".join(second.stdout.split())


def test_what_the_ledger_still_lists_at_the_end_of_a_run_is_stopped(tmp_path, monkeypatch):
    # Every child is stopped by the code that started it; one that its code lost (an
    # exception in a clean-up, a process that outlived SIGKILL's grace) is stopped at the
    # end of the run from the ledger, with its scratch directory.
    from mwbench import ledger, processes
    from mwbench.leftovers import end_what_remains

    monkeypatch.setenv("MWBENCH_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(ledger.tempfile, "tempdir", None)  # TMPDIR is read again
    own = ledger.Ledger(str(tmp_path / "m.db"))
    ledger.activate(own)
    try:
        with ledger.scratch_directory() as scratch:
            lost = processes.Child("server", ["sleep", "600"], scratch)
            (orphan,) = own.record()["processes"]
            assert alive(orphan)
            end_what_remains(own)
            assert not alive(orphan)
            assert not scratch.exists()
        lost.process.wait()
    finally:
        ledger.activate(None)
        own.close()
        monkeypatch.setattr(ledger.tempfile, "tempdir", None)
    assert list((tmp_path / "state").iterdir()) == []


def wait_for_deployment(run: Run) -> list[dict]:
    """The deploy driver's session (its pid, every process's start) once the deployment
    is up in it."""
    driver = next(p for p in run.wait_for_long_cell(("collocated",))["processes"]
                  if p["role"] == "collocated")
    deadline = time.monotonic() + WAIT_S
    while len(members := session_members(driver["pid"])) < DEPLOYED:
        assert alive(driver) and time.monotonic() < deadline, "the deployment did not start"
        time.sleep(POLL_S)
    return [{"pid": pid, "start_ticks": start_ticks(pid)} for pid in members]


@pytest.mark.skipif(not DEPLOY_BUILT, reason="deploy not built")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: signal.Signals(s).name)
def test_a_stop_signal_ends_a_deployment_the_cell_made(tmp_path, signum):
    run = Run(tmp_path, spec=DEPLOY_SPEC)
    deployed = wait_for_deployment(run)
    run.process.send_signal(signum)
    status, out, err = run.finish()

    assert status == 128 + signum, out + err
    assert not any(alive(p) for p in deployed), "a node or component server was left"
    assert list((tmp_path / "tmp").iterdir()) == [], "a deployment's files were left"
    assert list(run.state.iterdir()) == []


@pytest.mark.skipif(not DEPLOY_BUILT, reason="deploy not built")
def test_what_a_killed_run_deployed_is_removed_by_mwbench_clean(tmp_path):
    run = Run(tmp_path, spec=DEPLOY_SPEC)
    deployed = wait_for_deployment(run)
    run.process.kill()
    run.finish()
    assert all(alive(p) for p in deployed)  # kill -9 leaves the deployment running

    cleaned = subprocess.run([mwbench_exe(), "clean"], capture_output=True, text=True,
                             env=run.env, timeout=WAIT_S)
    assert cleaned.returncode == 0, cleaned.stderr
    assert not any(alive(p) for p in deployed), "a node or component server was left"
    assert list((tmp_path / "tmp").iterdir()) == []
    assert list(run.state.iterdir()) == []
