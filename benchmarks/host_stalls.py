"""How often does this machine stop running us? The stalls an open loop's tail is made of.

A virtual machine's vCPU is a thread of its host, which now and then runs
something else; a bare-metal CPU takes interrupts and SMIs. Either way a
process that is running, runnable and alone on its CPU does not run for a
while. An open loop's calls that fall in such a stall wait for its end, so
when stalls of milliseconds take about 1% of the time, every open loop's p99
is milliseconds, whatever the middleware (docs/performance.md, "Latency
against offered load"). A closed loop meets each stall once, as one slow
sample.

This script runs one process per CPU, pinned, reading CLOCK_MONOTONIC in a
tight loop for --seconds, with the idle hold (/dev/cpu_dma_latency 0), and
prints per CPU the gaps between two reads longer than --threshold-us: their
count, their share of the time, the largest, and a histogram by decade.
A Python loop reads the clock about every 0.1 µs here, far under the
threshold.

    .venv/bin/python benchmarks/host_stalls.py --seconds 10
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "crosscheck"))
import mwbench_cell  # noqa: E402  (the idle hold and the machine's state)

DECADES_US = (100, 1_000, 10_000, 100_000)


def gaps_on(cpu: int, seconds: float, threshold_ns: int) -> list[int]:
    """The gaps (ns) over the threshold between two clock reads on `cpu`, kept in a list
    that only grows when a gap is found."""
    os.sched_setaffinity(0, {cpu})
    clock = time.monotonic_ns
    found: list[int] = []
    last = clock()
    end = last + int(seconds * 1e9)
    while last < end:
        now = clock()
        if now - last > threshold_ns:
            found.append(now - last)
        last = now
    return found


def decade_counts(gaps_us: list[float]) -> list[int]:
    bounds = (*DECADES_US, float("inf"))
    return [sum(low <= gap < high for gap in gaps_us) for low, high in pairwise(bounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threshold-us", type=float, default=100.0)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    latency_fd = mwbench_cell.prepare_machine(f"{len(cpus)} CPUs, {args.seconds:g} s each")
    with ProcessPoolExecutor(len(cpus)) as pool:
        found = list(pool.map(gaps_on, cpus, [args.seconds] * len(cpus),
                              [int(args.threshold_us * 1000)] * len(cpus)))
    mwbench_cell.release_machine(latency_fd)
    labels = [f"{low:g}-{high:g}" for low, high in pairwise(DECADES_US)]
    print(f"gaps over {args.threshold_us:g} µs between two reads of the clock, per CPU")
    print(f"{'cpu':>3} {'gaps':>6} {'per s':>7} {'time %':>7} {'largest ms':>10}  "
          + " ".join(f"{label + ' µs':>13}" for label in labels) + f" {'≥100 ms':>8}")
    for cpu, gaps in zip(cpus, found, strict=True):
        gaps_us = [gap / 1000 for gap in gaps]
        share = sum(gaps) / (args.seconds * 1e9) * 100
        largest = max(gaps_us, default=0) / 1000
        print(f"{cpu:>3} {len(gaps):>6} {len(gaps) / args.seconds:>7.1f} {share:>7.2f} "
              f"{largest:>10.2f}  " + " ".join(f"{n:>13}" for n in decade_counts(gaps_us)))


if __name__ == "__main__":
    main()
