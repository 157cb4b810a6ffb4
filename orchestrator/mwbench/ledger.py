"""What a live run has started, written down so that a run killed outright can be cleaned up.

A run that ends any other way stops its processes and removes its files
itself (interruption.py). `kill -9`, an out-of-memory kill or a power cut
leave them: driver servers that serve until told to stop, a middleware daemon
(iceoryx's RouDi) that makes every later cell of its driver fail, scratch
directories, shared-memory files. So each run keeps a ledger, one JSON file in
the machine's state directory, updated as it starts and reaps children and
creates and removes directories: its own process (pid and start time, so that
a reused pid is not mistaken for it), its database and run, each child's
process group (every child leads a session of its own, processes.py), the
scratch directories and the files its daemons leave when they die.

A run whose process is gone is dead: the next `mwbench run`, or `mwbench
clean`, removes what it left (leftovers.py). A live run's ledger tells whose a
running daemon is.

The state directory is $MWBENCH_STATE_DIR, else /run/mwbench for root, else
$XDG_RUNTIME_DIR/mwbench, else mwbench-UID in the temporary directory: on a
tmpfs where there is one, since nothing in it outlives a reboot, as nothing
it describes does.
"""

import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .bounded_input import InputError, read_text

SCRATCH_PREFIX = "mwbench-cell-"
MAX_LEDGER_BYTES = 1 << 20


def state_dir() -> Path:
    if override := os.environ.get("MWBENCH_STATE_DIR"):
        return Path(override)
    if os.geteuid() == 0:
        return Path("/run/mwbench")
    if runtime := os.environ.get("XDG_RUNTIME_DIR"):
        return Path(runtime) / "mwbench"
    return Path(tempfile.gettempdir()) / f"mwbench-{os.geteuid()}"


# --- processes, as /proc tells them ------------------------------------------------

def start_ticks(pid: int) -> int | None:
    """When the process started (clock ticks since boot), or None if it is gone or a
    zombie (dead, waiting for a parent that may never reap it)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command's closing parenthesis: state is field 3, starttime field 22.
    if fields[0] in (b"Z", b"X"):
        return None
    return int(fields[19])


def group_members(pgid: int) -> list[int]:
    """The live processes of process group `pgid`."""
    return _members(_GROUP, pgid)


def session_members(sid: int) -> list[int]:
    """The live processes of session `sid`: every child mwbench starts leads a session
    (processes.py), and what it starts in process groups of its own (a deployment's
    nodes and their component servers) stays in it, so the session is all of it."""
    return _members(_SESSION, sid)


_GROUP, _SESSION = 2, 3  # /proc/PID/stat fields after the command: pgrp 5 and session 6


def _members(field: int, number: int) -> list[int]:
    members = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] not in (b"Z", b"X") and int(fields[field]) == number:
            members.append(int(entry.name))
    return members


def kill_session(sid: int) -> None:
    """SIGKILL to every live process of session `sid`."""
    for pid in session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def is_alive(pid: int, ticks: int | None, boot: str) -> bool:
    """Whether the process `pid` that started at `ticks` during boot `boot` still runs."""
    return boot == boot_id() and ticks is not None and start_ticks(pid) == ticks


# --- the ledger of this run ---------------------------------------------------------

@dataclass
class Ledger:
    """The ledger of the run of this process; every change is on disk when it returns."""

    db: str
    run_id: int | None = None
    processes: dict[int, dict] = field(default_factory=dict)  # pgid -> what it is
    paths: list[str] = field(default_factory=list)
    daemons: list[dict] = field(default_factory=list)  # daemon specs (their leftovers)
    path: Path = field(init=False)

    def __post_init__(self):
        directory = state_dir()
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.path = directory / f"run-{os.getpid()}.json"
        self._write()

    def started(self, pid: int, role: str, program: str) -> None:
        self.processes[pid] = {"pid": pid, "start_ticks": start_ticks(pid), "role": role,
                               "program": program}
        self._write()

    def reaped(self, pid: int) -> None:
        if self.processes.pop(pid, None) is not None:
            self._write()

    def created(self, path: Path) -> None:
        self.paths.append(str(path))
        self._write()

    def removed(self, path: Path) -> None:
        if str(path) in self.paths:
            self.paths.remove(str(path))
            self._write()

    def daemon_started(self, spec: dict) -> None:
        self.daemons.append(spec)
        self._write()

    def daemon_stopped(self, spec: dict) -> None:
        if spec in self.daemons:
            self.daemons.remove(spec)
            self._write()

    def close(self) -> None:
        """The run has ended: its ledger goes, unless something it started remains."""
        if not self.processes and not self.paths:
            self.path.unlink(missing_ok=True)

    def record(self) -> dict:
        """The ledger as it is written: what other runs read (OtherRun.record)."""
        return {"pid": os.getpid(), "start_ticks": start_ticks(os.getpid()),
                "boot_id": boot_id(), "db": self.db, "run_id": self.run_id,
                "processes": list(self.processes.values()), "paths": list(self.paths),
                "daemons": list(self.daemons)}

    def forget(self) -> None:
        """Everything listed is gone (leftovers.end_what_remains removed it)."""
        self.processes.clear()
        self.paths.clear()
        self.daemons.clear()
        self._write()

    def _write(self) -> None:
        partial = self.path.with_suffix(".partial")
        partial.write_text(json.dumps(self.record()))
        os.replace(partial, self.path)


_active: Ledger | None = None


def activate(ledger: Ledger | None) -> None:
    """Make `ledger` the one children and scratch directories are recorded in."""
    global _active
    _active = ledger


def active() -> Ledger | None:
    return _active


@contextmanager
def scratch_directory() -> Iterator[Path]:
    """A new directory for one cell's files, in the active ledger while it exists."""
    path = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
    if _active is not None:
        _active.created(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        if _active is not None and not path.exists():
            _active.removed(path)


# --- the ledgers of other runs ------------------------------------------------------

@dataclass
class OtherRun:
    """Another run's ledger: a live run's, or a dead run's with what it left."""

    file: Path
    record: dict

    @property
    def alive(self) -> bool:
        return is_alive(self.record.get("pid", 0), self.record.get("start_ticks"),
                        self.record.get("boot_id", ""))

    def describe(self) -> str:
        run = self.record.get("run_id")
        return (f"mwbench run {run if run is not None else '(not begun)'} "
                f"(pid {self.record.get('pid')}, database {self.record.get('db')})")

    def live_processes(self) -> list[dict]:
        """The process groups of this run that still have members."""
        return [process for process in self.record.get("processes", [])
                if group_is_ours(process)]


def other_runs() -> list[OtherRun]:
    """Every ledger in the state directory but this process's; unreadable ones are named
    as runs with nothing known, so that clean-up removes them."""
    directory = state_dir()
    if not directory.is_dir():
        return []
    runs = []
    for file in sorted(directory.glob("run-*.json")):
        if file.name == f"run-{os.getpid()}.json":
            continue
        try:
            record = json.loads(read_text(file, MAX_LEDGER_BYTES, "ledger"))
            if not isinstance(record, dict):
                raise ValueError("not an object")
        except (InputError, ValueError):
            record = {}
        runs.append(OtherRun(file, record))
    return runs


def daemon_owner(program: str) -> OtherRun | None:
    """The live run whose ledger lists a running daemon `program`, if any."""
    for run in other_runs():
        if run.alive and any(p.get("role") == "daemon" and
                             os.path.basename(p.get("program", "")) == program
                             for p in run.live_processes()):
            return run
    return None


def group_is_ours(process: dict) -> bool:
    """A recorded child's session is still ours if its leader is the process we started
    (same start time) or, the leader gone, members remain: a session's id is not given
    to a new process while the session has members."""
    pgid = process.get("pid")
    if not isinstance(pgid, int) or pgid <= 1:
        return False
    leader = start_ticks(pgid)
    if leader is not None:
        return leader == process.get("start_ticks")
    return bool(session_members(pgid))
