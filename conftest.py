"""What every test shares: which tests may run beside each other, and how a test finds the
processes it started.

`make test` runs the tests in three worker processes (pytest-xdist, `--dist
loadfile`: each module on one worker, so that its module-wide fixtures run
once). A test may run beside any other unless it is marked
`once_per_machine`: it uses something the machine has only once, and holds a
lock on this machine while it runs, so that no two such tests overlap,
whichever worker (or whichever other test run on the machine) runs them:

- iceoryx's RouDi: one per machine (iceoryx 2.0), which the iceoryx tests, the
  orchestrator's cells of iceoryx and its daemon tests start (and any mwbench run
  beside the tests: the lock is the one its cells of iceoryx take);
- Fast DDS's files in /dev/shm, whose every new name a fastdds test counts as
  its own leftover, and which a test that starts Fast DDS makes.

(The subnets of test hosts, also picked machine-wide, are claimed under a
lock of their own: testsupport/namespaces.py.)

A check of such machine-wide state (no Fast DDS file left in /dev/shm) cannot
tell another user's files from a test's: it judges only while no other
mwbench run is live on the machine (`other_live_runs`), and says nothing
otherwise.
"""

import fcntl
import os
import uuid

import pytest
from proc_view import TEST_TAG, tagged_processes  # drivers/: pyproject's pythonpath

MARKER = "once_per_machine"
# The lock is mwbench's own lock of RouDi (mwbench/daemon.py), which every mwbench run takes
# while a cell uses RouDi: a test marked `once_per_machine` waits for such a cell of someone
# beside the tests, and such a cell waits for the test. What the test starts is told that the
# lock is held (daemon.LOCK_HELD_VARIABLE), so that a run it starts does not wait for it.
ROUDI = "iox-roudi"


@pytest.fixture(autouse=True)
def one_at_a_time_where_the_machine_has_one(request, monkeypatch):
    """For a test marked `once_per_machine`: the machine's lock, for as long as it runs."""
    if request.node.get_closest_marker(MARKER) is None:
        yield
        return
    from mwbench import daemon

    with daemon.lock_path(ROUDI).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        monkeypatch.setenv(daemon.LOCK_HELD_VARIABLE, ROUDI)
        yield


@pytest.fixture
def other_live_runs():
    """A function listing the mwbench runs live on this machine now (from the ledgers in
    the default state directory: a run of someone beside the tests), as descriptions."""
    from mwbench import ledger

    def live() -> list[str]:
        directory = os.environ.pop("MWBENCH_STATE_DIR", None)  # the machine's, not a test's
        try:
            return [run.describe() for run in ledger.other_runs() if run.alive]
        finally:
            if directory is not None:
                os.environ["MWBENCH_STATE_DIR"] = directory
    return live


@pytest.fixture
def own_processes(monkeypatch):
    """A function listing the processes that carry this test's tag, as (pid, command name),
    among those running now: the tag is in the environment of whatever the test starts
    after asking for this fixture, and of their children. A test judges its own leftovers
    by it, never processes found by name."""
    tag = f"{os.getpid()}-{uuid.uuid4().hex}"
    monkeypatch.setenv(TEST_TAG, tag)
    return lambda names=(): tagged_processes(tag, names)
