"""The deployment nodes of a cell on other hosts: the role `nodes` of the factor `hosts`.

A driver that deploys component applications (the `deploy` driver) starts
the plan's nodes itself, on its own host. A level such as
`{client: host-1, nodes: {Sensors: host-1, Display: host-2}}` puts nodes on
hosts instead: the driver declares how a node is started (`"nodes"` in
--describe, docs/driver-contract-daemons.md), and for each cell this module
starts one node per name at its host's Place, pinned to the CPU of the process
that deploys (as the driver's own nodes inherit it), waits for each node's
object reference, and writes the node map (`NAME REFERENCE` lines, DAnCE's) on
the host of the process that deploys. That process alone gets the map as a
driver option; it starts the plan's other nodes itself. The nodes run from
before the driver processes start until after they have stopped, like a
daemon (daemon.py); one that exits early fails the cell, naming it.
"""

import os
from pathlib import Path

from ..paths import in_build_of
from ..processes import Child, ChildFailure
from .topology import Topology

START_TIMEOUT_S = 30.0
STOP_GRACE_S = 5.0


class DeploymentNodes:
    """The nodes a cell's level of `hosts` names; `start` and `stop` are no-ops when it
    names none."""

    def __init__(self, spec: dict | None, topology: Topology, places: dict, cpu: int | None,
                 cell_options: dict, scratch: Path):
        self.spec = spec
        self.topology = topology
        self.places = places
        self.cpu = cpu
        self.cell_options = cell_options
        self.scratch = scratch
        self.children: dict[str, Child] = {}  # by node name

    def start(self, mode: str) -> dict[str, str]:
        """Start the nodes, write the node map; the driver option that passes it to the
        process that deploys ({} when the level names no nodes)."""
        if not self.topology.nodes:
            return {}
        lines = []
        for node, host in self.topology.nodes:
            place = self.places[host]
            reference_file = place.scratch / f"node-{node}.ior"
            child = place.start(f"node {node}", self._argv(node, place, reference_file),
                                self.scratch)
            self.children[node] = child
            try:
                child.wait_for_file(reference_file, START_TIMEOUT_S, place.exists)
            except ChildFailure as failure:
                raise ChildFailure(self._failed(node, host, str(failure))) from None
            lines.append(f"{node} {place.read(reference_file).decode().strip()}\n")
        deployer = self.places[self.topology.deployer(mode)]
        node_map = deployer.scratch / "nodes.map"
        deployer.write(node_map, "".join(lines).encode())
        return {self.spec["option"]: str(node_map)}

    def _argv(self, node: str, place, reference_file: Path) -> list[str]:
        values = {"{name}": node, "{bind}": place.host.bind,
                  "{reference_file}": str(reference_file)}
        arguments = [_filled(in_build_of(place, argument), values)
                     for argument in self.spec["argv"]]
        for option, flag in self.spec.get("path_options", {}).items():
            if option in self.cell_options:
                arguments[1:1] = [flag, in_build_of(place, str(self.cell_options[option]))]
        pinned = ["taskset", "--cpu-list", str(self.cpu)] if self.cpu is not None else []
        return pinned + arguments

    def check(self, when: str) -> None:
        """Fail the cell if a node died while the drivers needed it."""
        for node, child in self.children.items():
            if child.exited():
                host = dict(self.topology.nodes)[node]
                raise ChildFailure(self._failed(node, host, f"{child.describe_exit()} {when}"))

    def stop(self) -> None:
        for child in self.children.values():
            child.stop(STOP_GRACE_S)

    def _failed(self, node: str, host: str, message: str) -> str:
        child = self.children[node]
        tail = child.stderr_tail()
        return (f"deployment node {node} on host {host}: {message}"
                + (f"\n--- node {node} stderr (last lines) ---\n{tail}" if tail else ""))


def _filled(argument: str, values: dict[str, str]) -> str:
    for placeholder, value in values.items():
        argument = argument.replace(placeholder, value)
    return argument


def validate(spec) -> str | None:
    """What is wrong with a driver's `nodes` description, or None."""
    if not isinstance(spec, dict):
        return "nodes is not an object"
    if not isinstance(spec.get("option"), str) or not spec["option"]:
        return "nodes.option is not an option's name"
    argv = spec.get("argv")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        return "nodes.argv is not a list of strings"
    if not os.path.isabs(argv[0]):
        return "nodes.argv[0] is not an absolute path"
    for placeholder in ("{name}", "{reference_file}"):
        if placeholder not in argv:
            return f"nodes.argv has no argument {placeholder}"
    options = spec.get("path_options", {})
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        return "nodes.path_options is not an object of option names to flags"
    return None
