"""Which host each process of a cell runs on: the levels of the factor `hosts`.

A level names inventory hosts (inventory.py) by role:

    hosts:
      - local                                     # every process on one host
      - {client: host-1, server: host-2}
      - {client: host-1, subscribers: [host-2, host-3, host-4]}

`client` is the measuring process (a collocated cell's only one), `server`
the server, `subscribers` the hosts of a fan-out's subscriber processes,
dealt out in turn (with `subscriber_processes: each`, subscriber i runs on
the i-th host, modulo their number). A role not named runs on `local`, and
subscribers on the server's host. A daemon the driver needs (iceoryx's
RouDi) runs on the host of the processes that use it. A level is kept as
text ("client=host-1 server=host-2"), the store's column and the label.
"""

import re
from dataclasses import dataclass

from .inventory import LOCAL, NAME_PATTERN

ROLES = ("client", "server", "subscribers")
_NAME = re.compile(NAME_PATTERN)


def canonical(value) -> str:
    """A spec's level as text: a host's name, or `role=host ...` in ROLES' order. The
    text is a level too (as the store and exports give it back)."""
    if isinstance(value, str) and "=" in value:
        value = _roles_of(value)
    if isinstance(value, str):
        return _name(value, "hosts")
    if not isinstance(value, dict) or not value:
        raise ValueError("a level of hosts is a host's name, or a mapping of roles (client, "
                         "server, subscribers) to hosts' names")
    unknown = sorted(set(map(str, value)) - set(ROLES))
    if unknown:
        raise ValueError(f"unknown role {unknown[0]!r}; the roles are: {', '.join(ROLES)}")
    parts = []
    for role in ROLES:
        if role not in value:
            continue
        names = value[role]
        if role == "subscribers" and isinstance(names, list) and names:
            parts.append(f"{role}={','.join(_name(n, role) for n in names)}")
        else:
            parts.append(f"{role}={_name(names, role)}")
    return " ".join(parts)


def _roles_of(text: str) -> dict:
    """`client=a subscribers=b,c` as {"client": "a", "subscribers": ["b", "c"]}."""
    roles = {}
    for part in text.split():
        role, _, names = part.partition("=")
        roles[role] = names.split(",") if role == "subscribers" else names
    return roles


def _name(value, role: str) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise ValueError(f"{role}: {value!r} is not a host's name"
                         + (" (a list of names)" if role == "subscribers" else ""))
    return value


@dataclass(frozen=True)
class Topology:
    client: str
    server: str
    subscribers: tuple[str, ...]

    @classmethod
    def of(cls, level: str | None) -> "Topology":
        """The topology of a level (canonical text); None: every process here."""
        if level is None:
            return cls(LOCAL, LOCAL, (LOCAL,))
        if "=" not in level:
            return cls(level, level, (level,))
        roles = _roles_of(level)
        server = roles.get("server", LOCAL)
        return cls(roles.get("client", LOCAL), server, tuple(roles.get("subscribers", [server])))

    def server_host(self, subscriber_process: int | None) -> str:
        """The host of the server, or of a fan-out's subscriber process number i."""
        if subscriber_process is None:
            return self.server
        return self.subscribers[subscriber_process % len(self.subscribers)]

    def hosts(self, mode: str, fanout: bool, processes: int) -> list[str]:
        """The hosts a cell uses, the client's first."""
        if mode == "collocated":
            return [self.client]
        servers = [self.server_host(i) for i in range(processes)] if fanout else [self.server]
        return list(dict.fromkeys([self.client, *servers]))
