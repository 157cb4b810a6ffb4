#!/usr/bin/env python3
"""User-space instructions per round trip: the rawtcp driver against the minimal loop.

Wall-clock ratios on a shared virtual machine drift by more than the 5 % the
harness may cost; instruction counts from `valgrind --tool=callgrind` do not.
Each client runs twice, with N and 2N samples, so that everything done once
(start-up, connection, writing the file) cancels out:

    per round trip = (cost at 2N - cost at N) / N

counted over the client's measuring code only: the driver's `measure()` (the
harness loop and the driver's call, inclusive) and the minimal program's
`main()` less its `fprintf` of the samples. Kernel work (the system calls, the
context switches) is not counted; `strace -c` shows both clients make the
same two system calls per round trip.

    .venv/bin/python benchmarks/harness_overhead/instructions.py [--samples N]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def inclusive(callgrind_out: Path, symbol: str) -> int:
    """Inclusive instruction count of the first function whose name contains `symbol`."""
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(callgrind_out)],
                            capture_output=True, text=True, check=True).stdout
    for line in report.splitlines():
        if symbol in line:
            return int(re.match(r"\s*([\d,]+)", line).group(1).replace(",", ""))
    raise SystemExit(f"{callgrind_out}: no function matching {symbol!r}")


def driver_cost(build: Path, samples: int, tmp: Path) -> int:
    program = str(build / "drivers/rawtcp/mwbench-driver-rawtcp")
    common = ["--operation", "roundtrip", "--transport", "tcp", "--cpu", "0",
              "--endpoint-file", str(tmp / f"endpoint{samples}")]
    server = subprocess.Popen([program, "--role", "server", *common])
    try:
        while not (tmp / f"endpoint{samples}").exists():
            time.sleep(0.01)
        out = tmp / f"driver{samples}.callgrind"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", program,
                        "--role", "client", *common, "--samples", str(samples),
                        "--warmup", "1000", "--output", str(tmp / f"driver{samples}.result")],
                       check=True, capture_output=True)
    finally:
        server.terminate()
        server.wait()
    return inclusive(out, "::measure(")


def minimal_cost(build: Path, samples: int, tmp: Path) -> int:
    pattern = tmp / f"minimal{samples}.%p.callgrind"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={pattern}",
                    str(build / "benchmarks/harness_overhead/minimal_rawtcp"), "0", "0",
                    str(samples), "1000", str(tmp / f"minimal{samples}.txt")],
                   check=True, capture_output=True)
    # The client is the parent, the first process: the lower pid of the two files.
    files = sorted(tmp.glob(f"minimal{samples}.*.callgrind"),
                   key=lambda p: int(p.name.split(".")[1]))
    client = files[0]
    return inclusive(client, "minimal_rawtcp.cpp:main") - inclusive(client, "fprintf.c:fprintf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--build-dir", type=Path,
                        default=Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")))
    args = parser.parse_args()
    n = args.samples
    with tempfile.TemporaryDirectory(prefix="mwbench-instructions-") as scratch:
        tmp = Path(scratch)
        driver = (driver_cost(args.build_dir, 2 * n, tmp) - driver_cost(args.build_dir, n, tmp)) / n
        minimal = (minimal_cost(args.build_dir, 2 * n, tmp)
                   - minimal_cost(args.build_dir, n, tmp)) / n
    print(f"user-space instructions per round trip (client, callgrind, N={n}):")
    print(f"  minimal loop   {minimal:8.1f}")
    print(f"  rawtcp driver  {driver:8.1f}")
    print(f"  difference     {driver - minimal:8.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
