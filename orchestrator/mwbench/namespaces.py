"""Hosts on this machine for tests and benchmarks: network namespaces joined by a
switch, so that processes talk over a real link, as on separate machines, and
reach nothing else.

    with namespaces.hosts(2) as (a, b):     # a.address 198.18.0.1, b.address 198.18.0.2
        node = a.start([program, ...])      # `ip netns exec` a: the process runs there
        b.ip("link", "set", "dev", namespaces.INTERFACE, "multicast", "off")

Each host has `lo` and one veth, INTERFACE, with an address in 198.18.0.0/24
(RFC 2544's benchmarking range, routed nowhere) and the multicast range routed
through it, and no IPv6 (whose link-local chatter would be the only traffic
to other addresses); the veth's other end is a port of a bridge in a namespace
of its own, the switch. Names carry this process's id and a counter, so
concurrent tests never share one. Leaving the `with` kills every process still
in the hosts (whoever started it) and deletes the namespaces, and with them the
links, whatever the test did. Standard library and iproute2's `ip` only; root
needed.
"""

import itertools
import os
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

INTERFACE = "mw0"  # each host's veth: names are per namespace, so every host's is this
SUBNET = "198.18.0"
CLEANUP_S = 60  # how long killed processes may take to go: only a hang exceeds it
_sequence = itertools.count()


def unavailable():
    """Why hosts() cannot work here, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "network namespaces need iproute2's `ip`"
    return None


def no_ipv6(namespace):
    """IPv6 off in `namespace`, so that its links send nothing of their own."""
    if not Path("/proc/sys/net/ipv6").exists():
        return  # this kernel has none
    for scope in ("default", "all"):  # default: for the links made after this
        setting = f"/proc/sys/net/ipv6/conf/{scope}/disable_ipv6"  # the namespace's own
        subprocess.run(["ip", "netns", "exec", namespace, "tee", setting], input="1",
                       stdout=subprocess.DEVNULL, text=True, check=True)


def ip(*args):
    """`ip ARGS`, its output; RuntimeError with what ip said if it fails."""
    done = subprocess.run(["ip", *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(map(str, args))}: {done.stderr.strip()}")
    return done.stdout


@dataclass
class Host:
    namespace: str
    address: str
    started: list = field(default_factory=list)

    def command(self, args):
        return ["ip", "netns", "exec", self.namespace, *map(str, args)]

    def run(self, args, **options):
        """subprocess.run of `args` in this host."""
        return subprocess.run(self.command(args), **options)

    def start(self, args, **options):
        """subprocess.Popen of `args` in this host (ip execs the program, so the
        Popen's pid is the program's)."""
        process = subprocess.Popen(self.command(args), **options)
        self.started.append(process)
        return process

    def ip(self, *args):
        return ip("-n", self.namespace, *args)

    def pids(self):
        """Every process in this host now, whoever started it."""
        return {int(pid) for pid in ip("netns", "pids", self.namespace).split()}

    def kill_all(self):
        deadline = time.monotonic() + CLEANUP_S
        while pids := self.pids():  # again: a node may have spawned a server meanwhile
            if time.monotonic() > deadline:
                raise RuntimeError(f"processes {pids} in {self.namespace} outlive SIGKILL")
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for process in self.started:  # our children: reaped, else they stay zombies
                process.wait(timeout=CLEANUP_S)


@contextmanager
def hosts(count=2):
    """`count` Hosts on one switch, 198.18.0.1 onwards; removed on leaving."""
    tag = f"mwbench-{os.getpid()}-{next(_sequence)}"
    switch = f"{tag}-switch"
    made, joined = [], []
    try:
        ip("netns", "add", switch)
        made.append(switch)
        no_ipv6(switch)
        # No snooping: nothing here is a multicast querier, so flood every group.
        ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        ip("-n", switch, "link", "set", "br0", "up")
        for number in range(1, count + 1):
            host = Host(f"{tag}-{number}", f"{SUBNET}.{number}")
            ip("netns", "add", host.namespace)
            made.append(host.namespace)
            joined.append(host)
            no_ipv6(host.namespace)
            # Both ends are made in their namespaces: no name taken, ever, outside them.
            port = f"port{number}"
            ip("link", "add", INTERFACE, "netns", host.namespace, "type", "veth",
               "peer", "name", port, "netns", switch)
            ip("-n", switch, "link", "set", port, "master", "br0", "up")
            host.ip("addr", "add", f"{host.address}/24", "dev", INTERFACE)
            host.ip("link", "set", "lo", "up")
            host.ip("link", "set", INTERFACE, "up")
            host.ip("route", "add", "224.0.0.0/4", "dev", INTERFACE)
        yield joined
    finally:  # all of it, whatever fails on the way
        problems = []
        for host in joined:
            try:
                host.kill_all()
            except (RuntimeError, subprocess.SubprocessError) as problem:
                problems.append(problem)
        for namespace in made:  # and with each, its links, bridge and routes
            try:
                ip("netns", "delete", namespace)
            except RuntimeError as problem:
                problems.append(problem)
        if problems:
            raise RuntimeError(f"hosts not all removed: {problems}")
