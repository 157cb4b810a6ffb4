"""The leftovers of dead runs: found from their ledgers (ledger.py), removed, or named.

The next `mwbench run` and `mwbench clean` call `clean_dead_runs`: for each
ledger whose run's process is gone, it stops what is left of the run's process
groups (SIGTERM, then SIGKILL), removes its scratch directories and the files its daemons leave when
they die, marks the run `abandoned` in its database and deletes the ledger.
What it cannot remove it names, with the command that would.
"""

import os
import shutil
import signal
import sqlite3
import tempfile
import time
from pathlib import Path

from . import daemon as daemons
from .ledger import SCRATCH_PREFIX, Ledger, OtherRun, kill_session, other_runs, session_members
from .store import Store, StoreError

STOP_GRACE_S = 5.0
KILL_WAIT_S = 5.0
POLL_INTERVAL_S = 0.01


class LeftoverError(Exception):
    """Leftovers of a dead run that could not be removed; the message says how."""


def clean_dead_runs(dry_run: bool = False) -> list[str]:
    """Remove what dead runs left and mark their runs abandoned; returns one line per
    thing found. Raises LeftoverError, naming each thing it could not remove and the
    command that would, after it has removed the rest."""
    others = other_runs()
    # The files a daemon leaves are the same for every run: while another run's daemon
    # lives, they are that daemon's, not a dead run's leftovers.
    daemon_alive = any(run.alive and run.record.get("daemons") for run in others)
    found: list[str] = []
    problems: list[str] = []
    for run in (run for run in others if not run.alive):
        processes = run.live_processes()
        files = leftover_files(run, with_daemon_files=not daemon_alive)
        found += [f"{run.describe()} is gone; its {p.get('role')} "
                  f"{os.path.basename(str(p.get('program')))} (process group {p['pid']}) "
                  "still runs" for p in processes]
        found += [f"{run.describe()} is gone; it left {path}" for path in files]
        if dry_run:
            continue
        # The processes first, the last started first (the drivers before the daemon they
        # use); then the files, looked for again: a process may leave files as it ends.
        failed = [problem for problem in map(_stop_group, _last_first(processes)) if problem]
        failed += [problem for problem in map(_remove, leftover_files(
            run, with_daemon_files=not daemon_alive)) if problem]
        problems += failed
        _mark_abandoned(run.record)
        if not failed:
            run.file.unlink(missing_ok=True)
    if problems:
        raise LeftoverError("\n".join(problems))
    return found


def end_what_remains(own: Ledger) -> None:
    """At the end of a run, whatever its own ledger still lists is killed and removed.

    Every child is stopped by the code that started it, in `finally` blocks; one
    that code lost (an exception in a clean-up, a process that outlived SIGKILL's
    grace) would outlive the run, but the ledger has it. Its daemons' files go
    with it, unless another live run's daemon owns them now. What cannot be
    removed stays in the ledger, and the next run finds it."""
    listed = OtherRun(own.path, own.record())
    daemon_alive = any(run.alive and run.record.get("daemons") for run in other_runs())
    failed = [problem for problem in map(_stop_group, _last_first(listed.live_processes()))
              if problem]
    failed += [problem for problem in map(_remove, leftover_files(
        listed, with_daemon_files=not daemon_alive)) if problem]
    if not failed:
        own.forget()


def leftover_files(run: OtherRun, with_daemon_files: bool = True) -> list[str]:
    """The scratch directories, and the daemon files, of `run` that still exist."""
    found = [path for path in run.record.get("paths", []) if _is_scratch(path)
             and os.path.lexists(path)]
    for spec in run.record.get("daemons", []) if with_daemon_files else []:
        if daemons.validate(spec) is None:  # a ledger names only files a daemon may leave
            found += daemons.leftover_paths(spec)
    return found


def _last_first(processes: list[dict]) -> list[int]:
    """The process groups of a ledger's processes, the last started first."""
    return [p["pid"] for p in reversed(processes)]


def _stop_group(pgid: int) -> str | None:
    """SIGTERM first to the child's group, so that drivers remove what they made (Fast
    DDS's segments in /dev/shm, which its drivers delete with their participant; a
    deployment's nodes, which the deploy driver tears down); SIGKILL to what is still
    there of the child's session (it leads one, processes.py) after STOP_GRACE_S."""
    try:
        os.killpg(pgid, signal.SIGTERM)
        _wait_until_ended(pgid, STOP_GRACE_S)
    except ProcessLookupError:
        pass  # its group is gone; what remains of its session is killed below
    except PermissionError:
        return f"cannot stop process group {pgid}: permission denied (kill -KILL -- -{pgid})"
    kill_session(pgid)
    if _wait_until_ended(pgid, KILL_WAIT_S):
        return None
    return f"session {pgid} did not end after SIGKILL (pkill -KILL -s {pgid})"


def _wait_until_ended(sid: int, timeout_s: float) -> bool:
    """Whether nothing of session `sid` runs, waiting up to `timeout_s` for it."""
    deadline = time.monotonic() + timeout_s
    while session_members(sid):
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL_INTERVAL_S)
    return True


def _remove(path: str) -> str | None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot remove {path}: {error.strerror} (rm -rf {path})"
    return None


def _is_scratch(path: str) -> bool:
    """Only scratch directories are ever removed: never a path a ledger could be made to
    name by someone else."""
    candidate = Path(path)
    return candidate.parent == Path(tempfile.gettempdir()) and \
        candidate.name.startswith(SCRATCH_PREFIX)


def _mark_abandoned(record: dict) -> None:
    """The dead run's database says `abandoned` instead of `running`, where it can."""
    db, run_id = record.get("db"), record.get("run_id")
    if not isinstance(db, str) or not isinstance(run_id, int):
        return
    try:
        store = Store.open_existing(Path(db))
    except StoreError:
        return  # moved or removed: nothing to mark
    try:
        store.abandon_run(run_id)
    except sqlite3.Error:
        pass  # read-only, say: the store still reads it abandoned (Store.status)
    finally:
        store.close()
