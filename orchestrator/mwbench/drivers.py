"""The driver registry: which drivers exist, which are usable here, what they support.

A driver is known when the repository has a folder `drivers/<name>/`; it is
available when its program is built and answers `--describe`
(docs/driver-contract.md, section 1). The description, not this module,
says which operations, modes and transports a driver supports, so adding a
driver needs no change here. A driver that declares a daemon (iceoryx's
RouDi) is available only when the daemon's program is on PATH. A driver may
also say how its deployment nodes are started on other hosts (hosts/nodes.py).
"""

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from . import paths
from .daemon import validate as validate_daemon
from .hosts.nodes import validate as validate_nodes

CONTRACT_VERSION = 1
DESCRIBE_TIMEOUT_S = 10


@dataclass(frozen=True)
class DriverInfo:
    name: str
    program: Path
    available: bool
    reason: str | None = None  # why not available
    middleware: str | None = None
    middleware_version: str | None = None
    operations: dict = field(default_factory=dict)  # name -> {"payload": bool}
    modes: dict = field(default_factory=dict)  # mode -> [transports]
    options: dict = field(default_factory=dict)  # key -> help text
    # option -> the only values it accepts (others are skipped); an option not listed takes any
    option_values: dict = field(default_factory=dict)
    max_threads: int | None = None  # bound on --threads; None: no bound
    max_servants: int | None = None  # bound on --servants; None: no bound
    max_subscribers: int | None = None  # bound on --subscribers of fanout; None: no bound
    daemon: dict | None = None  # the daemon each cell needs (daemon.py); None: none
    host_local: tuple[str, ...] = ()  # transports that cannot cross hosts (Unix sockets)
    # option -> value -> the transports that value works over (others are skipped)
    option_transports: dict = field(default_factory=dict)
    nodes: dict | None = None  # how its deployment nodes start elsewhere (hosts/nodes.py)
    open_loop: tuple[str, ...] = ()  # operations it runs under an open-loop --load
    # option -> the values with which it times one-way figures from two processes' clocks
    one_way_options: dict = field(default_factory=dict)

    def transports(self, mode: str) -> list[str]:
        return list(self.modes.get(mode, []))


Bound = Annotated[StrictInt, Field(ge=1)] | None


class _Description(BaseModel):
    """The keys of `--describe` (contract section 1) that mwbench relies on."""

    model_config = ConfigDict(extra="allow", strict=True)
    operations: dict[str, dict[str, bool]]
    modes: dict[str, list[str]]
    options: dict[str, str] = {}
    option_values: dict[str, list[str]] = {}
    max_threads: Bound = None
    max_servants: Bound = None
    max_subscribers: Bound = None
    host_local: list[str] = []
    option_transports: dict[str, dict[str, list[str]]] = {}
    open_loop: list[str] = []
    one_way_options: dict[str, list[str]] = {}


def known_driver_names() -> list[str]:
    """The folders of drivers/ that build a driver program, mwbench-driver-<folder>;
    folders of shared code (drivers/common, drivers/cmake) build none."""
    drivers_dir = paths.repo_root() / "drivers"
    return sorted(
        entry.name
        for entry in drivers_dir.iterdir()
        if (entry / "CMakeLists.txt").is_file()
        and f"mwbench-driver-{entry.name}" in (entry / "CMakeLists.txt").read_text()
    )


def program_path(name: str) -> Path:
    return paths.build_dir() / "drivers" / name / f"mwbench-driver-{name}"


@cache
def describe(name: str) -> DriverInfo:
    program = program_path(name)

    def unavailable(reason: str) -> DriverInfo:
        return DriverInfo(name, program, False, reason)

    if not program.is_file():
        # The build says why it left a driver out (drivers/cmake/DriverAvailability.cmake).
        reason_file = program.parent / "unavailable.txt"
        if reason_file.is_file():
            return unavailable(f"not built: {reason_file.read_text().strip()}")
        return unavailable(f"not built: {_shown(program)} is missing (run `make setup`)")
    try:
        answer = subprocess.run([str(program), "--describe"], capture_output=True, text=True,
                                timeout=DESCRIBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return unavailable(f"{_shown(program)} --describe failed: {error}")
    if answer.returncode != 0:
        tail = answer.stderr.strip().splitlines()[-1:] or ["no message"]
        return unavailable(f"{_shown(program)} --describe exited with status "
                           f"{answer.returncode}: {tail[0]}")
    try:
        data = json.loads(answer.stdout)
    except (json.JSONDecodeError, RecursionError) as error:
        return unavailable(f"{_shown(program)} --describe printed invalid JSON: {error}")
    if not isinstance(data, dict):
        return unavailable(f"{_shown(program)} --describe printed no JSON object")
    if data.get("contract") != CONTRACT_VERSION:
        return unavailable(f"driver speaks contract {data.get('contract')!r}; "
                           f"mwbench speaks {CONTRACT_VERSION}")
    try:
        _Description.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        return unavailable(f"{_shown(program)} --describe: "
                           f"{'.'.join(map(str, first['loc']))}: {first['msg']}")
    daemon = data.get("daemon")
    if daemon is not None:
        if problem := validate_daemon(daemon):
            return unavailable(f"{_shown(program)} --describe: {problem}")
        if shutil.which(daemon["program"]) is None:
            package = daemon.get("package") or "unknown"
            return unavailable(f"{daemon['program']} not found (Debian package {package})")
    nodes = data.get("nodes")
    if nodes is not None and (problem := validate_nodes(nodes)):
        return unavailable(f"{_shown(program)} --describe: {problem}")
    return DriverInfo(
        name=name,
        program=program,
        available=True,
        middleware=data.get("middleware"),
        middleware_version=data.get("middleware_version"),
        operations=data.get("operations", {}),
        modes=data.get("modes", {}),
        options=data.get("options", {}),
        option_values=data.get("option_values", {}),
        max_threads=data.get("max_threads"),
        max_servants=data.get("max_servants"),
        max_subscribers=data.get("max_subscribers"),
        daemon=daemon,
        host_local=tuple(data.get("host_local", ())),
        option_transports=data.get("option_transports", {}),
        nodes=nodes,
        open_loop=tuple(data.get("open_loop", ())),
        one_way_options=data.get("one_way_options", {}),
    )


def all_drivers() -> list[DriverInfo]:
    return [describe(name) for name in known_driver_names()]


def _shown(path: Path) -> str:
    """A path relative to the repository when it is inside it, for short messages."""
    try:
        return str(path.relative_to(paths.repo_root()))
    except ValueError:
        return str(path)
