#!/usr/bin/env python3
"""User-space instructions per call of the component layer: comp-comp against obj-obj.

What a component costs per call is tens of nanoseconds, while on a shared
virtual machine the median of a round trip moves by 20-60% between processes
(docs/performance.md, run-to-run drift). Instruction counts from
`valgrind --tool=callgrind` do not drift. Each configuration runs twice, with
N and 2N samples, so that everything done once (start-up, assembly, the
connection, writing the file) cancels out:

    per call = (instructions at 2N - instructions at N) / N

counted over the whole process (every thread, the ORB's included), user space
only: the kernel's share (system calls, wake-ups) is the same in both
scenarios, which make the same system calls per call. Collocated, one process
holds client and server; remote, the client and the server are counted
separately (the other end runs natively).

    MWBENCH_BUILD_DIR=build .venv/bin/python benchmarks/ccm_whitebox/instructions.py [--samples N]
"""

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = str(BUILD / "drivers" / "ccm" / "mwbench-driver-ccm")
CALL = ["--operation", "roundtrip", "--cpu", "0", "--warmup", "200"]


def total_instructions(callgrind_out: Path) -> int:
    """The program's total instruction count (callgrind's `summary:` line)."""
    for line in callgrind_out.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"{callgrind_out}: no summary line")


def callgrind(argv: list[str], out: Path) -> list[str]:
    return ["valgrind", "--tool=callgrind", "--trace-children=no",
            f"--callgrind-out-file={out}", *argv]


def collocated(scenario: str, samples: int, tmp: Path) -> int:
    out = tmp / f"colloc-{scenario}-{samples}.callgrind"
    subprocess.run(callgrind([DRIVER, "--role", "collocated", "--transport", "inproc",
                              "--option", f"scenario={scenario}", *CALL,
                              "--samples", str(samples), "--batch", "1",
                              "--output", str(tmp / "colloc.result")], out),
                   check=True, capture_output=True)
    return total_instructions(out)


def remote(scenario: str, samples: int, tmp: Path, counted: str) -> int:
    """Instructions of the `counted` end ("client" or "server") over a run of `samples`."""
    endpoint = tmp / f"endpoint-{scenario}-{samples}-{counted}"
    out = tmp / f"remote-{scenario}-{samples}-{counted}.callgrind"
    common = ["--transport", "tcp", "--option", f"scenario={scenario}", *CALL,
              "--endpoint-file", str(endpoint)]
    server_argv = [DRIVER, "--role", "server", *common, "--output", str(tmp / "server.result")]
    server = subprocess.Popen(callgrind(server_argv, out) if counted == "server" else server_argv,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not endpoint.exists():
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"server for {scenario} did not publish its endpoint")
            time.sleep(0.05)
        client_argv = [DRIVER, "--role", "client", *common, "--samples", str(samples),
                       "--timeout", "120", "--output", str(tmp / "client.result")]
        subprocess.run(callgrind(client_argv, out) if counted == "client" else client_argv,
                       check=True, capture_output=True)
    finally:
        server.terminate()
        server.wait(timeout=120)
    return total_instructions(out)


def per_call(measure, samples: int) -> float:
    return (measure(2 * samples) - measure(samples)) / samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5000)
    args = parser.parse_args()
    n = args.samples
    rows = []
    with tempfile.TemporaryDirectory(prefix="mwbench-ccm-instr-") as scratch:
        tmp = Path(scratch)
        for scenario in ("obj-obj", "comp-comp"):
            rows.append(("collocated (client + server)", scenario,
                         per_call(lambda s, sc=scenario: collocated(sc, s, tmp), n)))
            for end in ("client", "server"):
                rows.append((f"remote {end}", scenario,
                             per_call(lambda s, sc=scenario, e=end: remote(sc, s, tmp, e), n)))
    print(f"user-space instructions per call ({n} and {2 * n} calls; callgrind)")
    print(f"{'where':<30} {'obj-obj':>10} {'comp-comp':>10} {'added':>8}")
    by = {(where, scenario): value for where, scenario, value in rows}
    for where in dict.fromkeys(where for where, _, _ in rows):
        obj, comp = by[(where, "obj-obj")], by[(where, "comp-comp")]
        print(f"{where:<30} {obj:>10.0f} {comp:>10.0f} {comp - obj:>+8.0f}")


if __name__ == "__main__":
    if not re.search(r"valgrind-\d", subprocess.run(["valgrind", "--version"],
                                                    capture_output=True, text=True).stdout):
        raise SystemExit("valgrind is needed (Debian package valgrind)")
    main()
