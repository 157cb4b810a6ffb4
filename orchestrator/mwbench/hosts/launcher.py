"""What a cell needs of a host, and the launchers of this machine's hosts.

A launcher reaches one host of the inventory for a whole run. For each cell
that uses the host it opens a Place: a scratch directory there, the idle
hold there if the cell asks for it, and the cell's processes, started with
argument lists. The cell's code (cell_processes.py, daemon.py) sees only
Places, so the same code runs a cell on this machine, in a network namespace
(for tests) and over SSH (ssh.py). Every path a Place takes or gives is a
path on its host.
"""

import os
from contextlib import contextmanager
from pathlib import Path

from .. import environment
from ..daemon import answers, remove_leftovers
from ..placement import IdleHold
from ..processes import Child
from .inventory import Host


class HostFailure(Exception):
    """A host that cannot do its part (unreachable, refused, no build); names the host."""


class Place:
    """One cell's share of this machine: its local scratch directory and idle hold."""

    def __init__(self, host: Host, scratch: Path, hold: IdleHold):
        self.host = host
        self.scratch = scratch
        self.hold_held = hold.held
        self.hold_problem = hold.problem

    @property
    def is_local(self) -> bool:
        """Whether its files are this machine's (no copy needed to read them)."""
        return True

    def program(self, relative: Path) -> Path:
        """A program of the host's build, from its path relative to the build directory."""
        return self.host.build / relative

    def check_program(self, relative: Path) -> None:
        if not self.program(relative).is_file():
            raise HostFailure(_no_build(self.host, relative))

    def start(self, role: str, argv: list[str], log_dir: Path) -> Child:
        """`argv` started here, its temporary files in the cell's scratch directory."""
        return Child(role, self._command(argv), log_dir,
                     environment={**os.environ, "TMPDIR": str(self.scratch)})

    def _command(self, argv: list[str]) -> list[str]:
        return argv

    def exists(self, path: Path) -> bool:
        return Path(path).exists()

    def read(self, path: Path) -> bytes:
        return Path(path).read_bytes()

    def write(self, path: Path, data: bytes) -> None:
        Path(path).write_bytes(data)

    def fetch(self, path: Path, local_dir: Path) -> Path:
        """`path` as a file of this machine: itself here, a copy in `local_dir` elsewhere."""
        return Path(path)

    def socket_answers(self, path: str) -> bool:
        return answers(path)

    def problem(self) -> str | None:
        """Why the host no longer answers, or None (this machine always does)."""
        return None

    def remove_leftovers(self, spec: dict) -> list[str]:
        return remove_leftovers(spec)


class NamespacePlace(Place):
    """A cell's share of a network namespace of this machine: its files are this
    machine's, its processes run in the namespace (`ip netns exec` execs them, so a
    child's pid and process group are the program's)."""

    def _command(self, argv: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.host.target, *argv]


class LocalLauncher:
    """This machine, or a network namespace on it."""

    def __init__(self, host: Host):
        self.host = host

    @contextmanager
    def place(self, idle_hold: bool, scratch: Path, log_dir: Path):
        """The cell's Place here; `scratch` is the cell's directory on this machine."""
        del log_dir  # the processes' logs go to the cell's directory in any case
        with IdleHold(idle_hold) as hold:
            kind = NamespacePlace if self.host.kind == "netns" else Place
            yield kind(self.host, scratch, hold)

    def environment(self) -> dict:
        """`mwbench env` of the host: this machine's (a namespace shares its kernel)."""
        return environment.collect()

    def close(self) -> None:
        pass


def _no_build(host: Host, relative: Path) -> str:
    return (f"host {host.describe()} has no mwbench build: {host.build / relative} is "
            f"missing (run `make setup` in {host.checkout} there, or set `build:` of "
            f"{host.name} in the inventory)")
