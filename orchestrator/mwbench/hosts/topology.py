"""Which host each process of a cell runs on: the levels of the factor `hosts`.

A level names inventory hosts (inventory.py) by role:

    hosts:
      - local                                     # every process on one host
      - {client: host-1, server: host-2}
      - {client: host-1, subscribers: [host-2, host-3, host-4]}
      - {client: host-1, nodes: {Sensors: host-1, Display: host-2}}

`client` is the measuring process (a collocated cell's only one), `server`
the server, `subscribers` the hosts of a fan-out's subscriber processes,
dealt out in turn (with `subscriber_processes: each`, subscriber i runs on
the i-th host, modulo their number), `nodes` the hosts of a deployment's
nodes by their names in the plan (hosts/nodes.py starts them; the process
that deploys starts the plan's other nodes on its own host). A role not named
runs on `local`, and subscribers on the server's host. A daemon the driver
needs (iceoryx's RouDi) runs on the host of the processes that use it. A
level is kept as text ("client=host-1 nodes=Display:host-2,Sensors:host-1"),
the store's column and the label.
"""

import re
from dataclasses import dataclass

from .inventory import LOCAL, NAME_PATTERN

ROLES = ("client", "server", "subscribers", "nodes")
_NAME = re.compile(NAME_PATTERN)
# A node's name in a plan, as a level's text can hold it (no ",", ":" or "=").
_NODE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def canonical(value) -> str:
    """A spec's level as text: a host's name, or `role=host ...` in ROLES' order. The
    text is a level too (as the store and exports give it back)."""
    if isinstance(value, str) and "=" in value:
        value = _roles_of(value)
    if isinstance(value, str):
        return _name(value, "hosts")
    if not isinstance(value, dict) or not value:
        raise ValueError("a level of hosts is a host's name, or a mapping of roles (client, "
                         "server, subscribers, nodes) to hosts' names")
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
        elif role == "nodes":
            parts.append(f"{role}={_nodes(names)}")
        else:
            parts.append(f"{role}={_name(names, role)}")
    return " ".join(parts)


def _nodes(value) -> str:
    """A mapping of nodes' names to hosts as text: `Display:host-2,Sensors:host-1`."""
    if not isinstance(value, dict) or not value:
        raise ValueError("nodes: a mapping of nodes' names (as the plan names them) to "
                         "hosts' names, e.g. {Sensors: host-1, Display: host-2}")
    for node in value:
        if not isinstance(node, str) or not _NODE.fullmatch(node):
            raise ValueError(f"nodes: {node!r} is not a node's name (letters, digits, "
                             "'_', '.', '-')")
    return ",".join(f"{node}:{_name(value[node], f'nodes: {node}')}" for node in sorted(value))


def _roles_of(text: str) -> dict:
    """`client=a subscribers=b,c nodes=N:d` as {"client": "a", "subscribers": ["b", "c"],
    "nodes": {"N": "d"}}."""
    roles = {}
    for part in text.split():
        role, _, names = part.partition("=")
        if role == "subscribers":
            roles[role] = names.split(",")
        elif role == "nodes":
            roles[role] = dict(pair.split(":", 1) for pair in names.split(","))
        else:
            roles[role] = names
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
    nodes: tuple[tuple[str, str], ...] = ()  # (node, host), by the nodes' names

    @classmethod
    def of(cls, level: str | None) -> "Topology":
        """The topology of a level (canonical text); None: every process here."""
        if level is None:
            return cls(LOCAL, LOCAL, (LOCAL,))
        if "=" not in level:
            return cls(level, level, (level,))
        roles = _roles_of(level)
        server = roles.get("server", LOCAL)
        return cls(roles.get("client", LOCAL), server, tuple(roles.get("subscribers", [server])),
                   tuple(sorted(roles.get("nodes", {}).items())))

    def deployer(self, mode: str) -> str:
        """The host of the process that deploys (a remote cell's server, otherwise the
        measuring process), where the node map goes."""
        return self.server if mode == "remote" else self.client

    def server_host(self, subscriber_process: int | None) -> str:
        """The host of the server, or of a fan-out's subscriber process number i."""
        if subscriber_process is None:
            return self.server
        return self.subscribers[subscriber_process % len(self.subscribers)]

    def hosts(self, mode: str, fanout: bool, processes: int) -> list[str]:
        """The hosts a cell uses, the client's first, then the servers' and the nodes'."""
        nodes = [host for _, host in self.nodes]
        if mode == "collocated":
            return list(dict.fromkeys([self.client, *nodes]))
        servers = [self.server_host(i) for i in range(processes)] if fanout else [self.server]
        return list(dict.fromkeys([self.client, *servers, *nodes]))
