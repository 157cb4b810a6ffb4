#!/usr/bin/env python3
"""Compare the rawtcp driver (harness included) with a minimal hand-written loop.

Runs, alternately, `minimal_rawtcp` and the rawtcp driver (server + client via
the contract arguments) with the same placement, REPS times each, and prints
the median of each repetition, the median of those medians, the ratio
driver / minimal, and the median of the per-repetition ratios. The harness
should add at most 5 % to the median.

    python3 benchmarks/harness_overhead/run.py --placement cross-cpu
"""

import argparse
import os
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLACEMENTS = {"same-cpu": (0, 0), "cross-cpu": (1, 0)}  # (server CPU, client CPU)


def hold_cpu_dma_latency():
    """Asks for 0 us wake-up latency (no deep C-states) while the file stays open."""
    try:
        fd = os.open("/dev/cpu_dma_latency", os.O_WRONLY)
        os.write(fd, struct.pack("i", 0))
        return fd
    except OSError as e:
        print(f"cpu_dma_latency: not held ({e.strerror})")
        return None


def run_minimal(build, server_cpu, client_cpu, samples, warmup, tmp):
    out = tmp / "minimal.txt"
    subprocess.run(
        [str(build / "benchmarks/harness_overhead/minimal_rawtcp"), str(server_cpu),
         str(client_cpu), str(samples), str(warmup), str(out)],
        check=True,
    )
    return [int(line) for line in out.read_text().split()]


def run_driver(build, server_cpu, client_cpu, samples, warmup, tmp):
    driver = str(build / "drivers/rawtcp/mwbench-driver-rawtcp")
    cell = ["--operation", "roundtrip", "--transport", "tcp", "--payload-bytes", "0"]
    endpoint = tmp / "endpoint"
    endpoint.unlink(missing_ok=True)
    server = subprocess.Popen([driver, "--role", "server", *cell, "--cpu", str(server_cpu),
                               "--endpoint-file", str(endpoint)])
    try:
        deadline = time.monotonic() + 10
        while not endpoint.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit("rawtcp server did not start")
            time.sleep(0.01)
        out = tmp / "driver.result"
        subprocess.run([driver, "--role", "client", *cell, "--cpu", str(client_cpu),
                        "--endpoint-file", str(endpoint), "--samples", str(samples),
                        "--warmup", str(warmup), "--batch", "1", "--output", str(out)],
                       check=True)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    lines = out.read_text().split("\n")
    return [int(s) for s in lines[2:-2]]  # between the header and "end"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--placement", choices=PLACEMENTS, default="cross-cpu")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--samples", type=int, default=20000)
    p.add_argument("--warmup", type=int, default=2000)
    p.add_argument("--build-dir", type=Path,
                   default=Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")))
    args = p.parse_args()

    server_cpu, client_cpu = PLACEMENTS[args.placement]
    latency_fd = hold_cpu_dma_latency()
    if latency_fd is not None:
        print("cpu_dma_latency: held at 0 us")
    print(f"placement {args.placement}: server CPU {server_cpu}, client CPU {client_cpu}; "
          f"{args.reps} repetitions of {args.samples} samples (warm-up {args.warmup})")

    medians = {"minimal": [], "driver": []}
    with tempfile.TemporaryDirectory(prefix="mwbench-overhead-") as tmp:
        for rep in range(1, args.reps + 1):
            for name, run in (("minimal", run_minimal), ("driver", run_driver)):
                samples = run(args.build_dir, server_cpu, client_cpu, args.samples,
                              args.warmup, Path(tmp))
                assert len(samples) == args.samples, f"{name}: {len(samples)} samples"
                medians[name].append(statistics.median(samples))
            print(f"rep {rep}: minimal {medians['minimal'][-1]:9.0f} ns   "
                  f"driver {medians['driver'][-1]:9.0f} ns")

    minimal = statistics.median(medians["minimal"])
    driver = statistics.median(medians["driver"])
    print(f"median of medians: minimal {minimal:.0f} ns, driver {driver:.0f} ns, "
          f"driver/minimal {driver / minimal:.3f}")
    # The machine drifts between repetitions (a VM especially); the two runs of
    # one repetition are neighbours in time, so their ratio is the steadier figure.
    pairs = zip(medians["driver"], medians["minimal"], strict=True)
    paired = statistics.median(d / m for d, m in pairs)
    print(f"median of per-repetition ratios driver/minimal: {paired:.3f}")
    if latency_fd is not None:
        os.close(latency_fd)


if __name__ == "__main__":
    main()
