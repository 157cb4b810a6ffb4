#!/usr/bin/env python3
"""What each ORB's client puts in its requests to each ORB's server: GIOP version, service contexts.

For each (client ORB, server ORB) pair of `mwbench interop` (objects, a round
trip), runs the server driver under `strace -f -e read,recvfrom`, keeps the
bytes it reads from its sockets, cuts them into GIOP messages and decodes the
header of every Request (GIOP 1.2: request id, object key, operation, service
context list). It prints, per pair, each distinct kind of request (version,
operation, the ids of its service contexts) with how many there were:

    jacorb -> omniorb  GIOP 1.2 ping [0x1 CodeSets]  x1
                       GIOP 1.2 test_method []  x7003

so that what a pair passes with, or fails on, can be named (docs/interop.md,
"Findings"). strace sees only the first 4 KiB of each read, so a request with
a large context (a CodeBase IOR) may be cut short and counted as `unreadable`.
Usage, from the repository root after building:

    MWBENCH_BUILD_DIR=build python3 benchmarks/interop_contexts.py [--orb NAME ...]
"""

import argparse
import collections
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mwbench import paths
from mwbench.interop.orbs import BY_NAME, ORB_NAMES

# IOP service context ids (CORBA 3.4, part 2, 13.7; 0x4e454f00 is Sun's, "NEO\0").
CONTEXT_NAMES = {0x0: "TransactionService", 0x1: "CodeSets", 0x6: "SendingContextRunTime",
                 0xF: "SecurityAttributeService", 0x11: "RMICustomMaxStreamFormat",
                 0x4E454F00: "SunORBVersion"}
# A read whole, begun (its thread blocked: strace shows its end later), or resumed.
READ = re.compile(r'^(\d+) +(?:read|recvfrom)\((\d+), "((?:\\x[0-9a-f]{2})*)"')
BEGUN = re.compile(r'^(\d+) +(?:read|recvfrom)\((\d+), +<unfinished')
RESUMED = re.compile(r'^(\d+) +<\.\.\. (?:read|recvfrom) resumed>"((?:\\x[0-9a-f]{2})*)"')
START_TIMEOUT_S = 60.0


def reads(trace: Path):
    """(descriptor, bytes) of every read in the trace, in the order they returned."""
    blocked: dict[str, str] = {}  # thread -> the descriptor its unfinished read is on
    for line in trace.read_text(errors="replace").splitlines():
        if match := READ.match(line):
            descriptor, data = match.group(2), match.group(3)
        elif match := BEGUN.match(line):
            blocked[match.group(1)] = match.group(2)
            continue
        elif (match := RESUMED.match(line)) and match.group(1) in blocked:
            descriptor, data = blocked.pop(match.group(1)), match.group(2)
        else:
            continue
        yield descriptor, bytes.fromhex(data.replace("\\x", ""))


def giop_messages(trace: Path):
    """Every whole GIOP message read, connection by connection: by descriptor, whichever
    of the server's threads read it (the GlassFish ORB hands a connection on)."""
    streams: dict[str, bytes] = {}
    for key, data in reads(trace):
        pending = streams.get(key, b"") + data
        while len(pending) >= 12 and pending[:4] == b"GIOP":
            size = struct.unpack_from("<I" if pending[6] & 1 else ">I", pending, 8)[0]
            if len(pending) < 12 + size:
                break
            yield pending[:12 + size]
            pending = pending[12 + size:]
        streams[key] = pending if pending[:4] == b"GIOP" else b""


def request_kind(message: bytes) -> str | None:
    """"GIOP 1.2 OPERATION [contexts]" of a Request, None for another message."""
    if message[7] != 0:
        return None
    order, version = ("<" if message[6] & 1 else ">"), f"{message[4]}.{message[5]}"
    if version != "1.2":
        return f"GIOP {version} request"
    try:
        at = 12 + 4 + 4 + 2  # request id, flags and reserved, the target's discriminator
        at = (at + 3) // 4 * 4
        at += 4 + struct.unpack_from(order + "I", message, at)[0]  # the object key
        at = (at + 3) // 4 * 4
        length = struct.unpack_from(order + "I", message, at)[0]
        operation = message[at + 4:at + 3 + length].decode()
        at = (at + 4 + length + 3) // 4 * 4
        contexts = []
        count = struct.unpack_from(order + "I", message, at)[0]
        at += 4
        for _ in range(count):
            at = (at + 3) // 4 * 4
            ident, size = struct.unpack_from(order + "II", message, at)
            contexts.append(f"{ident:#x} {CONTEXT_NAMES.get(ident, '?')}")
            at += 8 + size
    except (struct.error, UnicodeDecodeError):
        return f"GIOP {version} request (unreadable: cut short by strace)"
    return f"GIOP {version} {operation} [{', '.join(contexts)}]"


def probe(client: str, server: str, build: Path, scratch: Path) -> collections.Counter:
    """The kinds of request `client`'s driver sent `server`'s, counted."""
    sides = {role: BY_NAME[name].side("object") for role, name in
             (("client", client), ("server", server))}
    endpoint, trace = scratch / f"{client}-{server}.endpoint", scratch / f"{client}-{server}.st"
    errors = scratch / f"{client}-{server}.stderr"

    def argv(role: str) -> list[str]:
        side = sides[role]
        options = [word for key, value in side.options.items()
                   for word in ("--option", f"{key}={value}")]
        return [str(build / "drivers" / side.driver / f"mwbench-driver-{side.driver}"),
                "--role", role, "--operation", "roundtrip", "--transport", "tcp",
                "--endpoint-file", str(endpoint), *options]

    # A session of its own: strace and the server it traces are stopped together.
    server_process = subprocess.Popen(
        ["strace", "-f", "-qq", "-e", "trace=read,recvfrom", "-s", "4096", "-xx", "-o",
         str(trace), *argv("server")], stdout=subprocess.DEVNULL,
        stderr=errors.open("wb"), start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not endpoint.exists():
            if server_process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"{server}: the server did not publish its endpoint:\n"
                         + errors.read_text(errors="replace")[-2000:])
            time.sleep(0.05)
        subprocess.run([*argv("client"), "--samples", "3", "--warmup", "0", "--output",
                        str(scratch / "client.result")], check=True, timeout=START_TIMEOUT_S,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        if server_process.poll() is None:
            os.killpg(server_process.pid, signal.SIGTERM)
        server_process.wait(timeout=30)
    return collections.Counter(filter(None, map(request_kind, giop_messages(trace))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orb", action="append", choices=ORB_NAMES,
                        help="an ORB of the matrix (repeat; default all)")
    orbs = []
    for name in parser.parse_args().orb or list(ORB_NAMES):
        if why := BY_NAME[name].side("object").unavailable():
            print(f"{name}: left out: {why}")
        else:
            orbs.append(name)
    build = paths.build_dir()
    with tempfile.TemporaryDirectory(prefix="mwbench-contexts-") as scratch:
        for client in orbs:
            for server in orbs:
                kinds = probe(client, server, build, Path(scratch))
                for index, (kind, count) in enumerate(kinds.items()):
                    pair = f"{client} -> {server}" if index == 0 else ""
                    print(f"{pair:22} {kind}  x{count}")


if __name__ == "__main__":
    main()
