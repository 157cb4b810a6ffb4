"""What a test sees of a process in /proc: its sockets and connections, its children, its
multicast memberships, and the processes a test tagged.

Standard library only; imported by name as driver_processes.py is.
"""

import ipaddress
import os
import socket
from pathlib import Path

# The environment variable that tags what a test starts (the fixture `own_processes` of the
# repository's conftest.py): children, and theirs, inherit it, so that a test finds what it
# left behind without judging processes that another test, or someone beside the tests,
# started.
TEST_TAG = "MWBENCH_TEST_TAG"


def tagged_processes(tag, names=()):
    """(pid, command name) of the processes whose environment carries TEST_TAG=`tag` and
    whose command name starts with one of `names` (any name if none)."""
    wanted = f"{TEST_TAG}={tag}".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes().split(b"\0")
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if wanted in environment and (not names or name.startswith(tuple(names))):
            found.add((int(entry.name), name))
    return found


def socket_inodes(pid):
    """Inodes of the sockets `pid` has open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def inet_sockets(pid):
    """(table, local address) of every IPv4 and IPv6 socket `pid` has open: "tcp",
    "udp", "tcp6" or "udp6", and the address as text ("127.0.0.1", "::1", ...)."""
    return [(table, address) for table, address, _ in _inet_socket_rows(pid)]


TCP_LISTEN = "0A"  # the state of a listening socket in /proc/net/tcp


def listening_sockets(pid):
    """(table, local address) of every socket `pid` receives on from anyone: its TCP
    listeners and all its UDP sockets (a UDP socket receives on its address whatever
    it was made for). An IPv4-mapped IPv6 address is given as IPv4."""
    return [(table, _unmapped(address)) for table, address, state in _inet_socket_rows(pid)
            if table.startswith("udp") or state == TCP_LISTEN]


def _inet_socket_rows(pid):
    """(table, local address, state) of every IPv4 and IPv6 socket `pid` has open."""
    inodes = socket_inodes(pid)
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.append((table, _address(fields[1].split(":")[0]), fields[3]))
    return found


def _unmapped(address):
    return address[7:] if address.startswith("::ffff:") and "." in address else address


def process_tree(pid):
    """`pid` and every process descended from it (a server's helpers: a naming service,
    deployment nodes and their component servers), parents first."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # the process ended meanwhile
        # "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
        parent = int(text[text.rindex(")") + 2:].split()[1])
        children.setdefault(parent, []).append(int(stat.parent.name))
    tree, index = [pid], 0
    while index < len(tree):
        tree += children.get(tree[index], [])
        index += 1
    return tree


def _address(hex_text):
    """An address of /proc/net/*: 32-bit words in the machine's (little-endian) order."""
    raw = bytes.fromhex(hex_text)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    return socket.inet_ntop(socket.AF_INET if len(words) == 4 else socket.AF_INET6, words)


def is_loopback(address):
    return ipaddress.ip_address(address).is_loopback or (
        address.startswith("::ffff:") and ipaddress.ip_address(address[7:]).is_loopback)


def multicast_devices(pid):
    """{group: devices} of the IPv4 multicast groups joined in `pid`'s network namespace
    (/proc/PID/net/igmp): a socket bound to a group receives what arrives for it on
    those devices only."""
    joined, device = {}, None
    for line in Path(f"/proc/{pid}/net/igmp").read_text().splitlines()[1:]:
        fields = line.split()
        if not line[0].isspace():  # "Idx Device : Count Querier": a device's block
            device = fields[1]
        elif fields:
            joined.setdefault(_address(fields[0]), set()).add(device)
    return joined


def is_local(address, pid):
    """Loopback, or a multicast group `pid` has joined on loopback only."""
    if is_loopback(address):
        return True
    return ipaddress.ip_address(address).is_multicast and \
        multicast_devices(pid).get(address) == {"lo"}


def established_connections(pid, port):
    """TCP connections of `pid` to `port` on loopback that are ESTABLISHED, over IPv4
    or IPv6: a dual-stack socket connected to 127.0.0.1 (gRPC's, for one) is listed
    in net/tcp6 as ::ffff:127.0.0.1."""
    inodes = socket_inodes(pid)
    count = 0
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            remote, state, inode = fields[2], fields[3], fields[9]
            if state == "01" and inode in inodes and int(remote.split(":")[1], 16) == port:
                count += 1
    return count
