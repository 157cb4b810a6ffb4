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

`hosts(count, reachable=True)` also plugs this machine into the switch, so
that its processes reach the hosts as a lab's control machine reaches its
hosts (over SSH, testhosts.py). The hosts then get a /24 of 198.19.0.0/16 that
no interface here has yet, this machine its address .254, and two sets of
hosts never share a route. `remove_dead()` removes the hosts of processes
that died without leaving their `with` (SIGKILL): `mwbench clean` calls it.
"""

import fcntl
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
SUBNET = "198.18.0"  # hosts that nothing outside their switch reaches
REACHABLE_SUBNETS = tuple(f"198.19.{n}" for n in range(1, 255))  # one free /24 per set
# Held while a set of reachable hosts picks its /24 and takes it, so that two makers on one
# machine (two tests, two `mwbench testhosts`) never pick the same one.
SUBNET_LOCK = Path("/run/lock/mwbench-test-host-subnets.lock")
HERE = 254  # this machine's address on the switch of reachable hosts
PREFIX = "mwbench-"  # every namespace's name: PREFIX, the pid of its maker, then its own
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


def netem_unavailable():
    """Why netem (delay, loss) cannot shape links here, or None. Made to be asked, not
    assumed: this kernel has tbf but no netem, and another may have both."""
    namespace = f"{PREFIX}{os.getpid()}-{next(_sequence)}-probe"
    ip("netns", "add", namespace)
    try:
        ip("-n", namespace, "link", "add", "probe0", "type", "veth", "peer", "name", "probe1")
        done = subprocess.run(["ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev",
                               "probe0", "root", "netem", "delay", "1ms"],
                              capture_output=True, text=True)
        if done.returncode == 0:
            return None
        return f"netem is not in this kernel (tc: {done.stderr.strip()})"
    finally:
        ip("netns", "delete", namespace)


@dataclass
class Host:
    namespace: str
    address: str
    started: list = field(default_factory=list)
    switch: str | None = None  # the switch's namespace, where its port is
    port: str | None = None  # its port on the switch: the veth's other end

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

    def limit_rate(self, rate, burst="64kb", latency="50ms"):
        """Both directions of the host's link shaped by a token bucket (`tc tbf`): what it
        sends, on its veth, and what it receives, on its port of the switch. `rate` as tc
        reads it: "100mbit", "1gbit"."""
        for namespace, device in ((self.namespace, INTERFACE), (self.switch, self.port)):
            done = subprocess.run(["ip", "netns", "exec", namespace, "tc", "qdisc", "replace",
                                   "dev", device, "root", "tbf", "rate", str(rate),
                                   "burst", str(burst), "latency", str(latency)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"tc tbf rate {rate} on {device} of {namespace}: "
                                   f"{done.stderr.strip()}")

    def link_shaping(self):
        """The queueing disciplines of the host's link, as `tc qdisc show` says them."""
        return subprocess.run(["ip", "netns", "exec", self.namespace, "tc", "qdisc", "show",
                               "dev", INTERFACE], capture_output=True, text=True,
                              check=True).stdout

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
def _subnets_held():
    SUBNET_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with SUBNET_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def _free_subnet():
    """A /24 of REACHABLE_SUBNETS that no interface of this machine is in."""
    taken = ip("-4", "-o", "addr", "show")
    for subnet in REACHABLE_SUBNETS:
        if f" {subnet}." not in taken:
            return subnet
    raise RuntimeError("every /24 of 198.19.0.0/16 is in use here: remove old test hosts "
                       "(`mwbench clean`)")


def _plug_in_here(switch, tag, subnet):
    """A veth from this machine's namespace to the switch, with the address HERE."""
    here = f"mwb{tag.removeprefix(PREFIX).replace('-', 'n')}"[:15]  # names: 15 bytes at most
    ip("link", "add", here, "type", "veth", "peer", "name", "uplink", "netns", switch)
    ipv6 = Path(f"/proc/sys/net/ipv6/conf/{here}/disable_ipv6")
    if ipv6.exists():
        ipv6.write_text("1")
    ip("-n", switch, "link", "set", "uplink", "master", "br0", "up")
    ip("addr", "add", f"{subnet}.{HERE}/24", "dev", here)
    ip("link", "set", here, "up")


@contextmanager
def hosts(count=2, reachable=False):
    """`count` Hosts on one switch, .1 onwards; removed on leaving. Reachable from
    this machine's namespace if `reachable` (see the module's documentation)."""
    tag = f"{PREFIX}{os.getpid()}-{next(_sequence)}"
    switch = f"{tag}-switch"
    made, joined = [], []
    try:
        ip("netns", "add", switch)
        made.append(switch)
        no_ipv6(switch)
        # No snooping: nothing here is a multicast querier, so flood every group.
        ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        ip("-n", switch, "link", "set", "br0", "up")
        subnet = SUBNET
        if reachable:  # its veth goes with the switch's namespace
            with _subnets_held():
                subnet = _free_subnet()
                _plug_in_here(switch, tag, subnet)
        for number in range(1, count + 1):
            port = f"port{number}"
            host = Host(f"{tag}-{number}", f"{subnet}.{number}", switch=switch, port=port)
            ip("netns", "add", host.namespace)
            made.append(host.namespace)
            joined.append(host)
            no_ipv6(host.namespace)
            # Both ends are made in their namespaces: no name taken, ever, outside them.
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


def remove_dead():
    """Remove the hosts whose maker died without removing them; returns their names."""
    removed = []
    for line in ip("netns", "list").splitlines():
        name = line.split()[0] if line.split() else ""
        maker = name.removeprefix(PREFIX).split("-")[0]
        if not name.startswith(PREFIX) or not maker.isdigit() or alive(int(maker)):
            continue
        Host(name, "").kill_all()
        ip("netns", "delete", name)
        removed.append(name)
    return removed


def alive(pid):
    """Whether a process with this pid exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
