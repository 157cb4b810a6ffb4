"""Child processes of a cell: started with argument lists, watched, always reaped.

Children get a session of their own, so a Ctrl-C on the terminal reaches only
the orchestrator, which then stops them in order; whatever a child starts,
even in process groups of its own (a deployment's nodes), stays in that
session, so stopping a child ends all of it: SIGTERM to the child's group,
so that it can undo what it made, then SIGKILL to what is left of its
session. A child's temporary directory ($TMPDIR) is the cell's scratch
directory (hosts/launcher.py), so what it leaves there goes with the cell. Their standard output and
error go to files, not pipes, so a chatty child can never block on a full pipe,
and the tail of its error output can be shown when a cell fails. PID 1 may
not reap orphans on these machines, so every child is waited for here. Every
child is in the run's ledger (ledger.py) from its start until nothing of its
session runs.
Waiting for a child to do its part watches for a stop signal
(interruption.check); stopping one never does, and gives up on a process
that outlives SIGKILL rather than wait for ever (the ledger keeps it).
"""

import os
import signal
import subprocess
import time
from pathlib import Path

from . import interruption, ledger

POLL_INTERVAL_S = 0.005
WAIT_SLICE_S = 0.25  # how long a wait for a child goes without checking for a stop signal
STOP_GRACE_S = 5.0
TAIL_LINES = 15


class ChildFailure(Exception):
    """A child that did not do its part; the message says which and how."""


class Child:
    def __init__(self, role: str, argv: list[str], log_dir: Path, stdin_pipe: bool = False,
                 environment: dict | None = None):
        """`stdin_pipe`: give it a pipe as standard input (`say`), else /dev/null; its end
        is the child's sign that mwbench is gone (an SSH session's, remote_child.py).
        `environment`: its environment, else mwbench's."""
        self.role = role
        self.argv = argv
        self.stdout_path = log_dir / f"{role}.stdout"
        self.stderr_path = log_dir / f"{role}.stderr"
        stdin = subprocess.PIPE if stdin_pipe else subprocess.DEVNULL
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                argv, stdin=stdin, stdout=out, stderr=err, start_new_session=True,
                env=environment)
        if (record := ledger.active()) is not None:
            record.started(self.process.pid, role, argv[0])

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        return self._reaped(self.process.poll())

    def stderr_tail(self) -> str:
        try:
            lines = self.stderr_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-TAIL_LINES:])

    def describe_exit(self) -> str:
        code = self.process.returncode
        if code is None:
            return f"{self.role} is still running"
        if code < 0:
            return f"{self.role} was killed by signal {signal.Signals(-code).name}"
        return f"{self.role} exited with status {code}"

    def say(self, line: str) -> bool:
        """Write a line to the child's standard input pipe; False if it is closed."""
        try:
            self.process.stdin.write(f"{line}\n".encode())
            self.process.stdin.flush()
        except (OSError, ValueError):  # the child is gone, or the pipe closed here
            return False
        return True

    def close_stdin(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except OSError:
                pass  # a child that has gone has read all it will

    def wait_for_file(self, path: Path, timeout_s: float, exists=None) -> None:
        """Wait until `path` exists (`exists(path)` says, Path.exists by default), failing
        early if this child exits first."""
        deadline = time.monotonic() + timeout_s
        exists = exists or Path.exists
        while not exists(path):
            if self.exited():
                raise ChildFailure(f"{self.describe_exit()} before publishing its endpoint")
            if time.monotonic() > deadline:
                raise ChildFailure(
                    f"{self.role} did not publish its endpoint within {timeout_s:g} s")
            interruption.pause(POLL_INTERVAL_S)

    def wait(self, timeout_s: float) -> int:
        """Its exit status once it has ended; killed, and a ChildFailure, after
        `timeout_s`; Interrupted on a stop signal (the caller stops it)."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                status = self.process.wait(timeout=min(WAIT_SLICE_S, timeout_s))
                break
            except subprocess.TimeoutExpired:
                interruption.check()
                if time.monotonic() > deadline:
                    self.kill()
                    raise ChildFailure(f"{self.role} did not finish within {timeout_s:g} s") \
                        from None
        self._reaped(status)
        return status

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """SIGTERM, then SIGKILL after the grace period; always reaps, and leaves nothing
        of its session running."""
        if not self.exited():
            self._signal(signal.SIGTERM)
            try:
                self._reaped(self.process.wait(timeout=grace_s))
            except subprocess.TimeoutExpired:
                self.kill()
        self._end_session()

    def kill(self) -> None:
        if not self.exited():
            self._signal(signal.SIGKILL)
        try:
            self._reaped(self.process.wait(timeout=STOP_GRACE_S))
        except subprocess.TimeoutExpired:
            return  # stuck in the kernel: the ledger keeps it for the end of the run
        self._end_session()

    def _end_session(self) -> None:
        """Kill what is left of the child's session once the child has ended (the workers
        of a load generator, nodes a driver did not stop) and wait until none of it runs;
        then it leaves the ledger. Gives up after the grace period (the ledger keeps it)."""
        deadline = time.monotonic() + STOP_GRACE_S
        while ledger.session_members(self.process.pid):
            if time.monotonic() > deadline:
                return
            ledger.kill_session(self.process.pid)
            time.sleep(POLL_INTERVAL_S)
        if (record := ledger.active()) is not None:
            record.reaped(self.process.pid)

    def _reaped(self, status: int | None) -> bool:
        """Whether the child has ended."""
        if status is not None:
            self.close_stdin()
        return status is not None

    def _signal(self, signum: int) -> None:
        try:
            os.killpg(self.process.pid, signum)
        except ProcessLookupError:
            pass
