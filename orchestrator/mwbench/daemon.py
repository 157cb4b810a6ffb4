"""A daemon the middleware needs (iceoryx's RouDi): started before a cell, stopped after it.

A driver declares it in `--describe` (`"daemon"`,
docs/driver-contract-daemons.md): the program and its arguments, the Unix
datagram socket that is bound once it serves, and the files it leaves behind
when it dies without cleaning up. The orchestrator knows nothing of iceoryx
itself. One daemon per cell, like the background load (background.py): no cell
can inherit the state of another, and a daemon that crashed fails one cell, not
the run.

Order, for each cell that needs one:
0. take the machine's lock of that daemon (one RouDi per machine): another
   mwbench run's cell that uses it, or a test that does (conftest.py), is
   waited for, a cell lasting seconds;
1. refuse to start if the socket already answers (a daemon mwbench did not
   start: removing its files would break it, sharing it would measure it);
2. remove the leftovers of a crashed run (a stale socket or shared-memory
   segment would make the new daemon refuse to start, or clients reach a
   dead one);
3. start it as a child in its own session, and wait until its socket accepts
   a connection, failing early with its output's tail if it exits;
4. after the client (and the server) ended: SIGTERM, SIGKILL after a grace
   period, reap, and remove the leftovers again.
"""

import fcntl
import glob
import os
import shutil
import socket
import subprocess
import time
from functools import cache
from pathlib import Path

from . import interruption, ledger, paths
from .processes import Child, ChildFailure

START_TIMEOUT_S = 10.0
LOCK_WAIT_S = 600.0  # for another run's cell, or a test module, that uses the daemon
# Set by whoever holds the lock for what it starts (the tests: conftest.py), so that a run
# it starts does not wait for it.
LOCK_HELD_VARIABLE = "MWBENCH_DAEMON_LOCK_HELD"
STOP_GRACE_S = 5.0
POLL_INTERVAL_S = 0.01
# Where a driver may say its daemon leaves files: nothing else is ever removed.
LEFTOVER_DIRS = ("/dev/shm/", "/tmp/")


class Daemon:
    """The daemon of one cell, at the Place of the processes that use it (this machine's
    by default; hosts/launcher.py); `start` and `stop` are no-ops when the driver needs
    none."""

    def __init__(self, spec: dict | None, scratch: Path, place=None):
        self.spec = spec
        self.scratch = scratch
        self.place = place
        self.child: Child | None = None
        self.record: dict | None = None  # {"program", "argv", "version"} once started
        self._lock = None  # the machine's lock of the daemon, while this cell holds it

    def start(self) -> None:
        if not self.spec:
            return
        name = self.spec["program"]
        here = self.place is None or self.place.is_local
        program = shutil.which(name) if here else name  # elsewhere: that host's PATH
        if program is None:
            raise ChildFailure(f"{name} not found (Debian package {self.spec.get('package')})")
        if here and os.environ.get(LOCK_HELD_VARIABLE) != name:
            self._lock = take_lock(name)
        ready = self.spec["ready_socket"]
        if self._answers(ready):
            raise ChildFailure(_not_ours(name, ready))
        self._remove_leftovers()
        if (record := ledger.active()) is not None:
            record.daemon_started(self.spec)
        argv = [program, *map(self._on_host, self.spec.get("args", []))]
        self.record = {"program": name, "argv": argv, "version": version(
            program, tuple(self.spec.get("version_args", []))) if here else None}
        if self.place is None:
            self.child = Child("daemon", argv, self.scratch)
        else:
            self.child = self.place.start("daemon", argv, self.scratch)
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._answers(ready):
            if self.child.exited():
                raise ChildFailure(self._failed(f"{name} {self._exit()} before its socket "
                                                f"{ready} answered"))
            if time.monotonic() > deadline:
                self.child.kill()
                raise ChildFailure(self._failed(f"{name} did not bind its socket {ready} "
                                                f"within {START_TIMEOUT_S:g} s"))
            interruption.pause(POLL_INTERVAL_S)

    def check(self, when: str) -> None:
        """Fail the cell if the daemon died while the drivers needed it."""
        if self.child is not None and self.child.exited():
            raise ChildFailure(self._failed(f"{self.spec['program']} {self._exit()} {when}"))

    def _answers(self, ready: str) -> bool:
        return self.place.socket_answers(ready) if self.place else answers(ready)

    def _remove_leftovers(self) -> list[str]:
        return self.place.remove_leftovers(self.spec) if self.place else \
            remove_leftovers(self.spec)

    def _on_host(self, argument: str) -> str:
        """An argument naming a file of this machine's build (RouDi's configuration), as
        the host's build names it."""
        return argument if self.place is None else paths.in_build_of(self.place, argument)

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop(STOP_GRACE_S)
            try:
                self._remove_leftovers()
            except ChildFailure as problem:  # the next cell's start tries again, and says so
                if self.record is not None:
                    self.record["cleanup_problem"] = str(problem)
            else:
                if (record := ledger.active()) is not None:
                    record.daemon_stopped(self.spec)
        if self._lock is not None:
            self._lock.close()  # releases it
            self._lock = None

    def _exit(self) -> str:
        """How the daemon ended: "exited with status 1", "was killed by signal ..."."""
        assert self.child is not None
        return self.child.describe_exit().removeprefix("daemon ")

    def _failed(self, message: str) -> str:
        """`message` and the tail of what the daemon wrote (RouDi logs to standard output)."""
        assert self.child is not None
        tail = "\n".join(part for part in (_tail(self.child.stdout_path),
                                           self.child.stderr_tail()) if part)
        return message + (f"\n--- daemon output (last lines) ---\n{tail}" if tail else "")


def lock_path(program: str) -> Path:
    """The machine's lock of a daemon, which every mwbench run (and the tests) takes while
    one of its cells uses it."""
    directory = Path("/run/lock") if os.access("/run/lock", os.W_OK) else Path("/tmp")
    return directory / f"mwbench-daemon-{program}.lock"


def take_lock(program: str):
    """The lock of `program`, taken (an open file: closing it releases it), waiting for
    whoever holds it; ChildFailure after LOCK_WAIT_S."""
    lock = lock_path(program).open("a")
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return lock
        except BlockingIOError:
            if time.monotonic() > deadline:
                lock.close()
                raise ChildFailure(f"{program} is used by another mwbench run, or a test, on "
                                   f"this machine: waited {LOCK_WAIT_S:g} s for it "
                                   f"({lock_path(program)})") from None
            interruption.pause(POLL_INTERVAL_S * 5)


def answers(path: str) -> bool:
    """Whether a process has a Unix datagram socket bound at `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def _not_ours(name: str, ready: str) -> str:
    """Why a daemon that answers already is not used: whose it is, and what to do."""
    owner = ledger.daemon_owner(name)
    if owner is not None:
        return (f"{name} is already running for {owner.describe()}, which is still "
                "running: one mwbench run at a time can use it (wait for that run to end)")
    return (f"a {name} that mwbench did not start is running ({ready} answers); mwbench "
            "starts its own for each cell: stop it first (`mwbench clean` stops one a "
            "killed mwbench run left)")


def leftover_paths(spec: dict) -> list[str]:
    """The files the daemon leaves when it dies that exist now."""
    return [path for pattern in spec.get("leftovers", []) for path in glob.glob(pattern)]


def remove_leftovers(spec: dict) -> list[str]:
    """Remove the files the daemon leaves when it dies; returns what was removed."""
    removed = []
    for path in leftover_paths(spec):
        try:
            os.unlink(path)
        except (FileNotFoundError, IsADirectoryError):
            continue  # gone meanwhile, or a directory: never a tree
        except OSError as error:
            raise ChildFailure(f"cannot remove the leftover {path} of "
                               f"{spec['program']}: {error.strerror}") from None
        removed.append(path)
    return removed


def validate(spec) -> str | None:
    """What is wrong with a driver's `daemon` description, or None."""
    if not isinstance(spec, dict):
        return "daemon is not an object"
    if not isinstance(spec.get("program"), str) or not spec["program"]:
        return "daemon.program is not a program name"
    for key in ("args", "version_args", "leftovers"):
        value = spec.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"daemon.{key} is not a list of strings"
    ready = spec.get("ready_socket")
    if not isinstance(ready, str) or not os.path.isabs(ready):
        return "daemon.ready_socket is not an absolute path"
    for path in spec.get("leftovers", []):
        normal = os.path.normpath(path)
        if not normal.startswith(LEFTOVER_DIRS) or normal != path:
            return (f"daemon.leftovers: {path} is not a file under "
                    f"{' or '.join(LEFTOVER_DIRS)}")
    return None


@cache
def version(program: str, args: tuple[str, ...]) -> str | None:
    """The daemon's version answer, first line; None if it cannot say."""
    if not args:
        return None
    try:
        answer = subprocess.run([program, *args], capture_output=True, text=True, timeout=10,
                                check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (answer.stdout or answer.stderr).strip().splitlines()
    return lines[0] if lines else None


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
