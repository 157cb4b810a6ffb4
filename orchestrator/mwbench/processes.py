"""Child processes of a cell: started with argument lists, watched, always reaped.

Children get a session of their own, so a Ctrl-C on the terminal reaches only
the orchestrator, which then stops them in order. Their standard output and
error go to files, not pipes, so a chatty child can never block on a full pipe,
and the tail of its error output can be shown when a cell fails. PID 1 may
not reap orphans on these machines, so every child is waited for here.
"""

import os
import signal
import subprocess
import time
from pathlib import Path

POLL_INTERVAL_S = 0.005
STOP_GRACE_S = 5.0
TAIL_LINES = 15


class ChildFailure(Exception):
    """A child that did not do its part; the message says which and how."""


class Child:
    def __init__(self, role: str, argv: list[str], log_dir: Path):
        self.role = role
        self.argv = argv
        self.stdout_path = log_dir / f"{role}.stdout"
        self.stderr_path = log_dir / f"{role}.stderr"
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        return self.process.poll() is not None

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

    def wait_for_file(self, path: Path, timeout_s: float) -> None:
        """Wait until `path` exists, failing early if this child exits first."""
        deadline = time.monotonic() + timeout_s
        while not path.exists():
            if self.exited():
                raise ChildFailure(f"{self.describe_exit()} before publishing its endpoint")
            if time.monotonic() > deadline:
                raise ChildFailure(
                    f"{self.role} did not publish its endpoint within {timeout_s:g} s")
            time.sleep(POLL_INTERVAL_S)

    def wait(self, timeout_s: float) -> int:
        try:
            return self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ChildFailure(f"{self.role} did not finish within {timeout_s:g} s") from None

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """SIGTERM, then SIGKILL after the grace period; always reaps."""
        if self.exited():
            return
        self._signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        if not self.exited():
            self._signal(signal.SIGKILL)
        self.process.wait()

    def _signal(self, signum: int) -> None:
        try:
            os.killpg(self.process.pid, signum)
        except ProcessLookupError:
            pass
