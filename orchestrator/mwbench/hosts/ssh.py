"""A host reached over OpenSSH: the user's own `ssh`, configuration and keys.

Every command is an argument list, joined with shlex for the remote shell, so
no text from a spec, an inventory or a driver reaches that shell unquoted;
the remote scripts below are fixed text that takes everything else as
arguments ("$1", "$@"). The remote login shell must be a POSIX shell.

One master connection per host and run (ControlMaster), opened by the first
command and closed when the run ends, carries every session: a command costs a
round trip, not a handshake. It is a child of the run like a driver, so a run
killed outright leaves it in its ledger for `mwbench clean`. BatchMode: a
missing key fails at once instead of asking for a password. Keep-alives end a
session whose host stopped answering.

A cell's Place on the host is a session that made its scratch directory and
holds the idle state if asked, and that removes the directory when it ends:
when the cell is over, or when mwbench dies (its standard input closes).
"""

import json
import shlex
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from .. import interruption, ledger
from ..ledger import SCRATCH_PREFIX
from ..processes import Child
from .inventory import Host
from .launcher import HostFailure, _no_build
from .remote_child import RemoteChild

CONNECT_TIMEOUT_S = 10
COMMAND_TIMEOUT_S = 60.0
START_TIMEOUT_S = 30.0
POLL_INTERVAL_S = 0.02
MAX_ENVIRONMENT_BYTES = 1 << 20
SSH_FAILED = 255  # ssh's own status when the connection, not the command, failed

# Removes the cell directories of sessions that are gone (killed with their host, which could
# not remove them); prints each it removed. A directory, in the host's TMPDIR (else /tmp),
# carries its session's pid.
SWEEP_CELLS = r"""
base=${TMPDIR:-/tmp}
for old in "$base"/mwbench-host-cell-*; do
  pid=${old#"$base"/mwbench-host-cell-}
  pid=${pid%%-*}
  case $pid in ''|*[!0-9]*) continue ;; esac
  state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
  case $state in ''|Z) rm -rf -- "$old" 2>/dev/null && printf '%s\n' "$old" ;; esac
done
"""
# $1: "hold" or not. Prints the scratch directory, then whether the idle state is held. It
# sweeps first: the directories of dead sessions go with the next session there (or with
# `mwbench clean --inventory`).
CELL_SESSION = "{\n" + SWEEP_CELLS + "} >/dev/null\n" + r"""
dir=$(mktemp -d "$base/mwbench-host-cell-$$-XXXXXXXX") || exit 1
trap 'rm -rf -- "$dir"' EXIT
printf '%s\n' "$dir"
if [ "$1" != hold ]; then
  echo "not asked"
elif [ -w /dev/cpu_dma_latency ] && exec 4>/dev/cpu_dma_latency &&
     printf '\000\000\000\000' >&4; then
  echo held
else
  echo "idle hold not taken: /dev/cpu_dma_latency cannot be written"
fi
cat >/dev/null
"""
# $1: a Unix datagram socket's path; exits 0 if a process has it bound.
SOCKET_ANSWERS = ("import socket, sys\n"
                  "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
                  "try:\n    s.connect(sys.argv[1])\nexcept OSError:\n    sys.exit(1)\n")
# The arguments: glob patterns of files to remove; prints what it removed.
REMOVE_LEFTOVERS = r"""
for pattern in "$@"; do
  for file in $pattern; do
    if [ -f "$file" ] || [ -S "$file" ]; then rm -f -- "$file" && printf '%s\n' "$file"; fi
  done
done
"""


class SshLauncher:
    def __init__(self, host: Host):
        self.host = host
        # Short: a socket's path has at most 107 bytes. A scratch directory of the run's
        # ledger, so that a run killed outright has it removed by the next.
        self._control = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}ssh-"))
        if (record := ledger.active()) is not None:
            record.created(self._control)
        self._socket = self._control / "master"
        self._master: Child | None = None

    def command(self, remote_argv: list[str]) -> list[str]:
        """The local argument list that runs `remote_argv` on the host, through the master
        connection (opened first if it is not open)."""
        self._open_master()
        return ["ssh", *self._options("no"), "--", self.host.target, shlex.join(remote_argv)]

    def _options(self, master: str) -> list[str]:
        options = ["-F", str(self.host.ssh_config)] if self.host.ssh_config else []
        options += ["-T", "-o", "BatchMode=yes", "-o", f"ControlMaster={master}",
                    "-o", f"ControlPath={self._socket}",
                    "-o", f"ConnectTimeout={CONNECT_TIMEOUT_S}",
                    "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"]
        if self.host.port:
            options += ["-p", str(self.host.port)]
        return options

    def _open_master(self) -> None:
        """The master connection, a child of this run (in its ledger, so that a killed run's
        is ended by the next), opened again if it ended (a host that came back). Raises
        HostFailure with what ssh said if it cannot connect."""
        if self._master is not None and not self._master.exited():
            return
        if self._master is not None:
            self._master.kill()
        self._socket.unlink(missing_ok=True)
        self._master = Child(f"{self.host.name}.master",
                             ["ssh", *self._options("yes"), "-N", "--", self.host.target],
                             self._control)
        deadline = time.monotonic() + CONNECT_TIMEOUT_S + START_TIMEOUT_S
        while not self._socket.exists():
            if self._master.exited():
                raise HostFailure(f"host {self.host.describe()}: "
                                  f"{ssh_reason(self._master.stderr_tail())}")
            if time.monotonic() > deadline:
                self._master.kill()
                raise HostFailure(f"host {self.host.describe()} did not answer within "
                                  f"{CONNECT_TIMEOUT_S + START_TIMEOUT_S:g} s")
            interruption.pause(POLL_INTERVAL_S)

    def run(self, remote_argv: list[str], data: bytes | None = None,
            timeout_s: float = COMMAND_TIMEOUT_S) -> subprocess.CompletedProcess:
        """Run a command there to its end; HostFailure if the connection fails."""
        try:
            done = subprocess.run(self.command(remote_argv), input=data, capture_output=True,
                                  timeout=timeout_s, check=False,
                                  stdin=None if data is not None else subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise HostFailure(f"host {self.host.describe()} did not answer within "
                              f"{timeout_s:g} s ({remote_argv[0]})") from None
        if done.returncode == SSH_FAILED:
            raise HostFailure(f"host {self.host.describe()}: "
                              f"{ssh_reason(done.stderr.decode(errors='replace'))}")
        return done

    @contextmanager
    def place(self, idle_hold: bool, scratch: Path, log_dir: Path):
        place = SshPlace(self, idle_hold, log_dir)
        try:
            yield place
        finally:
            place.close()

    def environment(self) -> dict:
        """`mwbench env --json` of the host's checkout."""
        program = str(self.host.checkout / ".venv" / "bin" / "mwbench")
        done = self.run([program, "env", "--json"])
        if done.returncode != 0 or len(done.stdout) > MAX_ENVIRONMENT_BYTES:
            tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
            raise HostFailure(f"host {self.host.describe()}: `{program} env --json` "
                              f"exited with status {done.returncode}: "
                              f"{tail[0] if tail else 'no message'}")
        try:
            facts = json.loads(done.stdout)
        except (json.JSONDecodeError, RecursionError) as error:
            raise HostFailure(f"host {self.host.describe()}: `mwbench env --json` printed "
                              f"no JSON: {error}") from None
        if not isinstance(facts, dict):
            raise HostFailure(f"host {self.host.describe()}: `mwbench env --json` printed "
                              "no JSON object")
        return facts

    def close(self) -> None:
        """Close the master connection, which ends the host's side of it, and remove its
        directory."""
        if self._master is not None:
            self._master.stop()
        shutil.rmtree(self._control, ignore_errors=True)
        if (record := ledger.active()) is not None and not self._control.exists():
            record.removed(self._control)


class SshPlace:
    """A cell's share of an SSH host: its scratch directory, idle hold and processes."""

    is_local = False

    def __init__(self, launcher: SshLauncher, idle_hold: bool, log_dir: Path):
        self.launcher = launcher
        self.host = launcher.host
        self._children: list[RemoteChild] = []
        argv = ["sh", "-c", CELL_SESSION, "mwbench-cell", "hold" if idle_hold else "no"]
        self._session = Child(f"{self.host.name}.session", launcher.command(argv), log_dir,
                              stdin_pipe=True)
        try:
            scratch, hold = self._first_lines(2)
        except BaseException:
            self._session.kill()
            raise
        self.scratch = PurePosixPath(scratch)
        self.hold_held = hold == "held"
        self.hold_problem = None if hold in ("held", "not asked") else \
            f"host {self.host.name}: {hold}"

    def _first_lines(self, count: int) -> list[str]:
        """The session's first lines, once it has written them."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            lines = self._session.stdout_path.read_text(errors="replace").splitlines()
            if len(lines) >= count:
                return lines[:count]
            if self._session.exited():
                raise HostFailure(f"host {self.host.describe()}: "
                                  f"{ssh_reason(self._session.stderr_tail())}")
            if time.monotonic() > deadline:
                raise HostFailure(f"host {self.host.describe()} did not open a session "
                                  f"within {START_TIMEOUT_S:g} s")
            interruption.pause(POLL_INTERVAL_S)

    def program(self, relative: Path) -> PurePosixPath:
        return PurePosixPath(self.host.build) / relative

    def check_program(self, relative: Path) -> None:
        if self.launcher.run(["test", "-x", str(self.program(relative))]).returncode != 0:
            raise HostFailure(_no_build(self.host, relative))

    def start(self, role: str, argv: list, log_dir: Path) -> RemoteChild:
        """`argv` started there, in the scratch directory; its output comes to `log_dir`."""
        child = RemoteChild(role, self.host, self.launcher.command, [str(a) for a in argv],
                            log_dir, str(self.scratch))
        self._children.append(child)
        return child

    def exists(self, path) -> bool:
        return self.launcher.run(["test", "-e", str(path)]).returncode == 0

    def read(self, path) -> bytes:
        done = self.launcher.run(["cat", "--", str(path)])
        if done.returncode != 0:
            raise HostFailure(f"host {self.host.describe()}: cannot read {path}: "
                              f"{done.stderr.decode(errors='replace').strip()}")
        return done.stdout

    def write(self, path, data: bytes) -> None:
        done = self.launcher.run(["sh", "-c", 'cat >"$1"', "mwbench-write", str(path)], data)
        if done.returncode != 0:
            raise HostFailure(f"host {self.host.describe()}: cannot write {path}: "
                              f"{done.stderr.decode(errors='replace').strip()}")

    def fetch(self, path, local_dir: Path) -> Path:
        """A copy of the host's file `path` in `local_dir`, named after the host; a file
        that is not there leaves no copy (the caller's reading says so)."""
        local = local_dir / f"{self.host.name}.{PurePosixPath(path).name}"
        if self.exists(path):
            local.write_bytes(self.read(path))
        return local

    def problem(self) -> str | None:
        """Why the host no longer answers, or None: asked when a cell failed."""
        try:
            self.launcher.run(["true"])
        except HostFailure as failure:
            return str(failure)
        return None

    def socket_answers(self, path: str) -> bool:
        return self.launcher.run(["python3", "-c", SOCKET_ANSWERS, path]).returncode == 0

    def remove_leftovers(self, spec: dict) -> list[str]:
        done = self.launcher.run(["sh", "-c", REMOVE_LEFTOVERS, "mwbench-clean",
                                  *spec.get("leftovers", [])])
        return done.stdout.decode(errors="replace").splitlines()

    def close(self) -> None:
        """End every process still running there, then the session (which removes the
        scratch directory)."""
        for child in self._children:
            child.kill()
        self._session.close_stdin()
        self._session.stop()


def ssh_reason(stderr: str) -> str:
    """What ssh said when the connection failed: its last line that is not a warning."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()
             and not line.startswith("Warning:")]
    return lines[-1] if lines else "the SSH connection failed (ssh said nothing)"


def sweep_cells(host: Host) -> list[str]:
    """The cell directories of dead sessions on `host`, removed: what `mwbench clean
    --inventory` does for each host of a lab. HostFailure if it cannot be reached."""
    launcher = SshLauncher(host)
    try:
        done = launcher.run(["sh", "-c", SWEEP_CELLS, "mwbench-clean"])
    finally:
        launcher.close()
    return [line for line in done.stdout.decode(errors="replace").splitlines() if line]
