"""Full disclosure of every host a run uses: `mwbench env` run there, stored with the run.

A run's own `environment` is this machine's. When its cells run processes on
other hosts, each host's `mwbench env --json` is stored too (runs.hosts), with
how it was reached, its build and its bind address, or why it could not be
asked. Figures taken across hosts that differ (another kernel, CPU or
middleware version) are not what they seem: `differences` names what differs,
and the report warns with it. Round trips are timed on one host, so no
figure needs the hosts' clocks to agree.
"""

from .inventory import Host
from .launcher import HostFailure, LocalLauncher
from .ssh import SshLauncher

# What must be the same on every host for figures across them to compare, as
# (label, path into `mwbench env --json`).
COMPARED = (
    ("kernel", ("kernel", "release")),
    ("CPU model", ("machine", "cpu_model")),
    ("CPU count", ("machine", "cpu_count")),
    ("mwbench version", ("mwbench_version",)),
    ("commit", ("git", "commit")),
    ("build type", ("build", "build_type")),
    ("middleware packages", ("middleware_packages",)),
)


def launcher(host: Host):
    """The launcher that reaches `host` (local and namespaces here, SSH elsewhere)."""
    return SshLauncher(host) if host.kind == "ssh" else LocalLauncher(host)


def disclose(launchers: dict) -> dict:
    """For each host: how it is reached, its build and address, and its environment
    (None, with the `error`, if it could not be asked)."""
    hosts = {}
    for name, reach in launchers.items():
        host = reach.host
        entry = {"reach": host.reach, "checkout": str(host.checkout), "build": str(host.build),
                 "bind": host.bind, "environment": None, "error": None}
        try:
            entry["environment"] = reach.environment()
        except HostFailure as failure:
            entry["error"] = str(failure)
        hosts[name] = entry
    return hosts


def differences(hosts: dict | None) -> list[str]:
    """What differs between the hosts that disclosed their environment, one line each."""
    known = {name: entry["environment"] for name, entry in (hosts or {}).items()
             if entry.get("environment")}
    lines = []
    for label, path in COMPARED:
        values = {name: _at(environment, path) for name, environment in known.items()}
        if len({repr(value) for value in values.values()}) > 1:
            shown = "; ".join(f"{name}: {_short(value)}" for name, value in values.items())
            lines.append(f"the hosts differ in {label}: {shown}")
    return lines


def _at(facts: dict, path: tuple[str, ...]):
    for key in path:
        facts = facts.get(key) if isinstance(facts, dict) else None
    return facts


def _short(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {version}" for key, version in value.items() if version)
    return "unknown" if value is None else str(value)
