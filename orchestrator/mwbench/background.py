"""Background load: N CPU-burning processes while a cell measures (`background: cpu:N`).

The load is a real, common tool, Debian's stress-ng (`stress-ng --cpu N`),
so that anyone can reproduce it and the exact command and version are
recorded with the cell. It runs as a child of its own session, like the
driver processes (processes.py): started after the server has published its
endpoint (so the server's start-up is not slowed, only the measurement is),
and the client starts once its N workers are running; it is stopped and
reaped, workers and all, when the client ends, on failure and on Ctrl-C too.

stress-ng's own `--timeout` is set beyond the cell's timeout: should the
orchestrator itself be killed, the load ends by itself instead of burning
the machine for the day stress-ng defaults to.

A load that is not there measures nothing: a missing stress-ng, or one that
exits before the client has finished, fails the cell with the reason.
"""

import shutil
import subprocess
import time
from functools import cache
from pathlib import Path

from . import interruption
from .factors import background_workers
from .ledger import group_members
from .processes import Child, ChildFailure

PROGRAM = "stress-ng"
START_TIMEOUT_S = 30.0
POLL_INTERVAL_S = 0.01
TIMEOUT_MARGIN_S = 60


class BackgroundLoad:
    """The load of one cell; `start` and `stop` are no-ops for `none`."""

    def __init__(self, background: str, cell_timeout_s: float, scratch: Path):
        self.background = background
        self.workers = background_workers(background)
        self.cell_timeout_s = cell_timeout_s
        self.scratch = scratch
        self.child: Child | None = None
        self.record: dict | None = None  # {"argv": [...], "version": "..."} once started

    def start(self) -> None:
        if not self.workers:
            return
        program = shutil.which(PROGRAM)
        if program is None:
            raise ChildFailure(f"background {self.background} needs {PROGRAM}, which is not "
                               f"installed (Debian: apt-get install {PROGRAM}; `make setup` "
                               "installs it)")
        timeout = int(self.cell_timeout_s + TIMEOUT_MARGIN_S)
        argv = [program, "--cpu", str(self.workers), "--timeout", f"{timeout}s"]
        self.record = {"argv": argv, "version": version(program)}
        self.child = Child("background", argv, self.scratch)
        # The load is there once its workers are: stress-ng and one process per worker.
        deadline = time.monotonic() + START_TIMEOUT_S
        while len(group_members(self.child.pid)) < self.workers + 1:
            self.check("before the measurement")
            if time.monotonic() > deadline:
                raise ChildFailure(f"background load {self.background}: {PROGRAM} did not "
                                   f"start its {self.workers} workers within "
                                   f"{START_TIMEOUT_S:g} s")
            interruption.pause(POLL_INTERVAL_S)

    def check(self, when: str) -> None:
        """Fail the cell if the load is no longer running."""
        if self.child is not None and self.child.exited():
            tail = self.child.stderr_tail()
            raise ChildFailure(f"background load {self.background}: {PROGRAM} "
                               f"{self.child.describe_exit().removeprefix('background ')} "
                               f"{when}, so the cell did not run under the load it asked for"
                               + (f"\n--- background stderr (last lines) ---\n{tail}"
                                  if tail else ""))

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()


@cache
def version(program: str) -> str | None:
    """`stress-ng --version`, first line; None if it cannot say."""
    try:
        answer = subprocess.run([program, "--version"], capture_output=True, text=True,
                                timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (answer.stdout or answer.stderr).strip().splitlines()
    return lines[0] if lines else None
