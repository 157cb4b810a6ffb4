"""The UDP sockets a process holds, as the kernel lists them: for the tests that check
where a program's DDS sockets listen (servers bind to loopback unless told otherwise)."""

import os
from pathlib import Path


def udp_sockets(pid):
    """The local addresses ("0100007F:6862", as /proc/net/udp writes them) of `pid`'s UDP
    sockets."""
    inodes = set()
    for descriptor in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(descriptor)
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    found = []
    for table in ("udp", "udp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.append(fields[1])
    return found


def wildcard(addresses):
    """Those of `addresses` ("0100007F:6862") bound to every interface (0.0.0.0 or ::)."""
    return [address for address in addresses if set(address.split(":")[0]) == {"0"}]
