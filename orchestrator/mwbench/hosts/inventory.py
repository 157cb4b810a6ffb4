"""The host inventory: the hosts a run may place processes on, from a YAML file.

    hosts:
      lab-a:
        reach: ssh bench@lab-a.example:2222   # or: local, or: netns NAME
        checkout: /opt/mwbench                # mwbench there (`make setup` run in it)
        build: /opt/mwbench/build             # default: CHECKOUT/build (no checkout:
                                              # this machine's, as its build)
        bind: 10.0.0.1                        # the address its drivers bind (--bind), never
                                              # the wildcard (0.0.0.0, ::)
        ssh_config: lab_ssh_config            # ssh -F, relative to this file

A spec names it with `inventory:` (relative to the spec), or `mwbench run
--inventory FILE` does, so that one spec runs on a laptop, on test hosts and
in a lab. The host `local` is always there: this machine, its build, bound to
127.0.0.1. An SSH destination is `[user@]host[:port]` or a `Host` of the SSH
configuration; the usual OpenSSH files and keys apply. Every error names the
file, the line and the key.
"""

import ipaddress
import re
import socket
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from .. import paths
from ..bounded_input import InputError, load_yaml, read_text

LOCAL = "local"
LOOPBACK = "127.0.0.1"
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
MAX_INVENTORY_BYTES = 256 * 1024
# A destination never starts with "-": ssh would read it as an option.
_DESTINATION = re.compile(r"(?:(?P<user>[A-Za-z0-9_][A-Za-z0-9_.-]*)@)?"
                          r"(?P<host>[A-Za-z0-9][A-Za-z0-9_.-]*|\[[0-9A-Fa-f:.]+\])"
                          r"(?::(?P<port>[0-9]{1,5}))?")
_NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class InventoryError(Exception):
    """An invalid inventory; the message names the file, line and key."""


@dataclass(frozen=True)
class Host:
    """One host of the inventory, as the launchers use it."""

    name: str
    kind: Literal["local", "ssh", "netns"]
    target: str | None  # ssh: [user@]host; netns: the namespace; local: None
    port: int | None  # ssh only: None for the configuration's
    checkout: Path  # the mwbench repository there
    build: Path  # its build directory: drivers are build/drivers/NAME/...
    bind: str  # the address its drivers bind
    ssh_config: Path | None = None

    @property
    def reach(self) -> str:
        """How it is reached, as the inventory says it (for messages and the store)."""
        if self.kind == "local":
            return LOCAL
        port = f":{self.port}" if self.port else ""
        return f"{self.kind} {self.target}{port}"

    def describe(self) -> str:
        return self.name if self.kind == "local" else f"{self.name} ({self.reach})"


def local_host() -> Host:
    return Host(LOCAL, "local", None, None, paths.repo_root(), paths.build_dir(), LOOPBACK)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reach: str
    checkout: str | None = None
    build: str | None = None
    bind: str = LOOPBACK
    ssh_config: str | None = None

    @field_validator("reach")
    @classmethod
    def _reach(cls, value: str) -> str:
        _parse_reach(value)
        return value

    @field_validator("checkout", "build")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        if value is not None and not PurePosixPath(value).is_absolute():
            raise ValueError(f"{value!r} is not an absolute path")
        return value

    @field_validator("bind", mode="before")
    @classmethod
    def _not_wildcard(cls, value):
        # A driver binds one address, never every one (driver contract, --bind): a server
        # given the wildcard exits before it publishes its endpoint, in every cell.
        if value is None or (isinstance(value, str) and _is_wildcard(value)):
            named = repr(value) if value and value.strip() else "an empty address"
            raise ValueError(f"{named} is the wildcard address, which the drivers never "
                             "bind: give this host's address on the network the other hosts "
                             f"reach (e.g. 10.0.0.1), or leave `bind` out for {LOOPBACK}")
        return value

    @field_validator("bind")
    @classmethod
    def _address(cls, value: str, info: ValidationInfo) -> str:
        try:
            address = str(ipaddress.IPv4Address(value))
        except ValueError:
            raise ValueError(f"{value!r} is not an IPv4 address (the drivers bind it: "
                             "--bind)") from None
        # This machine's drivers can bind only its own addresses; any other fails every
        # cell's server. (An SSH host's or a namespace's addresses are known only there.)
        reach = info.data.get("reach")
        if reach is not None and _parse_reach(reach)[0] == "local" and not _is_own(address):
            raise ValueError(f"{address} is no address of this machine, so its drivers "
                             "cannot bind it: give one of its own (ip -4 address), or leave "
                             f"`bind` out for {LOOPBACK}")
        return address


class _Inventory(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hosts: dict[str, _Entry] = Field(min_length=1)


def _is_wildcard(value: str) -> bool:
    """0.0.0.0, ::, [::] (or another spelling of them), or nothing at all."""
    address = value.strip().removeprefix("[").removesuffix("]")
    if not address:
        return True
    try:
        return ipaddress.ip_address(address).is_unspecified
    except ValueError:
        return False


def _is_own(address: str) -> bool:
    """Whether a socket of this machine can bind `address`."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def _parse_reach(value: str) -> tuple[str, str | None, int | None]:
    kind, _, rest = value.strip().partition(" ")
    rest = rest.strip()
    if kind == LOCAL and not rest:
        return "local", None, None
    if kind == "ssh" and (match := _DESTINATION.fullmatch(rest)):
        port = int(match["port"]) if match["port"] else None
        if port is not None and not 1 <= port <= 65535:
            raise ValueError(f"port {port} is not between 1 and 65535")
        user = f"{match['user']}@" if match["user"] else ""
        return "ssh", user + match["host"].strip("[]"), port
    if kind == "netns" and _NAMESPACE.fullmatch(rest):
        return "netns", rest, None
    raise ValueError(f"{value!r} is not a way to reach a host: use `local`, "
                     "`ssh [user@]host[:port]` or `netns NAME`")


def load_inventory(path: Path) -> dict[str, Host]:
    """The hosts of the inventory file `path`, by name, `local` included."""
    try:
        document = load_yaml(read_text(path, MAX_INVENTORY_BYTES, "inventory"), path)
    except InputError as error:
        raise InventoryError(str(error)) from None
    try:
        model = _Inventory.model_validate(_plain(document))
    except ValidationError as error:
        first = error.errors()[0]
        location = list(first["loc"])
        line = _line_of(document, location)
        where = f"{path}:{line}" if line else str(path)
        raise InventoryError(f"{where}: {'.'.join(map(str, location))}: "
                             f"{first['msg'].removeprefix('Value error, ')}") from None
    hosts = {LOCAL: local_host()}
    for name, entry in model.hosts.items():
        line = _line_of(document, ["hosts", name])
        if not re.match(NAME_PATTERN, name):
            raise InventoryError(f"{path}:{line}: hosts.{name}: a host's name is letters, "
                                 "digits, '_', '.' and '-'")
        if name == LOCAL:
            raise InventoryError(f"{path}:{line}: hosts.local: `local` is this machine, "
                                 "always there; name the host otherwise")
        hosts[name] = _host(name, entry, path.parent)
    return hosts


def _host(name: str, entry: _Entry, directory: Path) -> Host:
    kind, target, port = _parse_reach(entry.reach)
    checkout = Path(entry.checkout) if entry.checkout else paths.repo_root()
    # A host given no checkout shares this machine's files (test hosts, a namespace): its
    # build is this machine's too, MWBENCH_BUILD_DIR included (paths.py).
    build = Path(entry.build) if entry.build else \
        checkout / "build" if entry.checkout else paths.build_dir().resolve()
    config = (directory / entry.ssh_config) if entry.ssh_config else None
    return Host(name, kind, target, port, checkout, build, entry.bind, config)


def _plain(node):
    if isinstance(node, dict):
        return {str(key): _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(value) for value in node]
    return node


def _line_of(document, location: list) -> int | None:
    node, line = document, None
    for part in location:
        if isinstance(node, dict) and part in node and hasattr(node, "lc"):
            line = node.lc.key(part)[0] + 1
            node = node[part]
        else:
            break
    return line
