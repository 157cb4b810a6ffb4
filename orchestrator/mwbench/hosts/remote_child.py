"""A process on an SSH host, watched from here as a local child is (processes.Child).

Here, the child is the `ssh` that runs it: its standard output and error come
back through the connection into this machine's files (so a failure's tail
is at hand), and its exit status is the remote program's. There, a fixed
wrapper runs the program in the background (its temporary files in the
cell's scratch directory there) and reads its standard input, the
connection: `TERM` sends the program SIGTERM, `KILL` (or the connection's
end, when mwbench is stopped or dies) kills the session sshd made for the
connection, every process group in it (a deployment's nodes have their own).
So nothing mwbench started can outlive it there, even if it is killed here
with SIGKILL.
"""

import signal
import time
from collections.abc import Callable
from pathlib import Path

from .. import interruption
from ..processes import STOP_GRACE_S, Child, ChildFailure
from .inventory import Host

# The arguments: the directory to run in, then the program and its own. Exits with the
# program's status (128 + N when signal N killed it).
WRAPPER = r"""
cd -- "$1" || exit 1
TMPDIR=$1
export TMPDIR
shift
exec 3<&0
"$@" </dev/null 3<&- &
program=$!
( while read -r request <&3; do
    case $request in TERM) kill -TERM "$program" ;; KILL) break ;; esac
  done
  pkill -KILL -s 0 || kill -KILL 0 ) &
watcher=$!
wait "$program"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
"""
SSH_FAILED = 255
POLL_INTERVAL_S = 0.02
SIGNALLED = 128  # a shell's status for a program that signal N killed: 128 + N


class RemoteChild:
    def __init__(self, role: str, host: Host, command: Callable[[list[str]], list[str]],
                 argv: list[str], log_dir: Path, directory: str):
        """`argv` runs on `host` in its `directory`; its output goes to `log_dir` here."""
        self.role = role
        self.host = host
        self.argv = argv
        wrapped = ["sh", "-c", WRAPPER, "mwbench-process", directory, *argv]
        self._ssh = Child(role, command(wrapped), log_dir, stdin_pipe=True)
        self.process = self._ssh.process
        self.stdout_path = self._ssh.stdout_path
        self.stderr_path = self._ssh.stderr_path
        self._killed_here = False  # by kill(): the connection's end is then no failure

    @property
    def pid(self) -> int:
        return self._ssh.pid  # this machine's ssh: the ledger's

    def exited(self) -> bool:
        return self._ssh.exited()

    def stderr_tail(self) -> str:
        return self._ssh.stderr_tail()

    def describe_exit(self) -> str:
        code = self.process.returncode
        where = f"on host {self.host.describe()}"
        if code is None:
            return f"{self.role} is still running {where}"
        if code == SSH_FAILED and self._killed_here:
            return f"{self.role} was killed by mwbench {where}"
        if code == SSH_FAILED:
            return (f"{self.role} lost its host {self.host.describe()}: the SSH connection "
                    "ended (the host died, or the program was killed there)")
        if code < 0:  # the ssh here was killed
            return f"{self.role}'s ssh was killed by signal {signal.Signals(-code).name}"
        if SIGNALLED < code < SIGNALLED + 65:
            return (f"{self.role} was killed by signal {_signal_name(code - SIGNALLED)} "
                    f"{where}")
        return f"{self.role} exited with status {code} {where}"

    def wait_for_file(self, path, timeout_s: float, exists) -> None:
        """Wait until `exists(path)` (asked of the host), failing early if the program
        ends first."""
        deadline = time.monotonic() + timeout_s
        while not exists(path):
            if self.exited():
                raise ChildFailure(f"{self.describe_exit()} before publishing its endpoint")
            if time.monotonic() > deadline:
                raise ChildFailure(f"{self.role} did not publish its endpoint within "
                                   f"{timeout_s:g} s (on host {self.host.describe()})")
            interruption.pause(POLL_INTERVAL_S)

    def wait(self, timeout_s: float) -> int:
        try:
            return self._ssh.wait(timeout_s)
        except ChildFailure as failure:
            raise ChildFailure(f"{failure} (on host {self.host.describe()})") from None

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """SIGTERM there, then the whole group killed after the grace period."""
        if not self.exited() and self._ssh.say("TERM"):
            try:
                self._ssh.process.wait(timeout=grace_s)
            except Exception:  # noqa: BLE001 - TimeoutExpired: killed below
                pass
        self.kill()

    def kill(self) -> None:
        """The group killed there; the ssh here ended and reaped."""
        if not self.exited():
            self._killed_here = True
            self._ssh.say("KILL")
            self._ssh.close_stdin()
            try:
                self._ssh.process.wait(timeout=STOP_GRACE_S)
            except Exception:  # noqa: BLE001 - a host that no longer answers: end ssh here
                pass
        self._ssh.kill()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
