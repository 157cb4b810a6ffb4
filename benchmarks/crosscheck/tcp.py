#!/usr/bin/env python3
"""Cross-check the rawtcp baseline's round trip against sockperf's TCP ping-pong.

For each placement, REPS times, alternately: mwbench's rawtcp `roundtrip`
cell (8-byte echo, TCP_NODELAY, blocking recv on both ends) and
`sockperf server` + `sockperf ping-pong --tcp` (14-byte messages, its
smallest; blocking recvfrom on both ends, Nagle off) with the same placement.
Prints both medians as round trips in microseconds and their ratio.

    python3 benchmarks/crosscheck/tcp.py --placements same-cpu unpinned
"""

import re
import socket
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from mwbench_cell import (
    PLACEMENTS,
    crosscheck_arguments,
    driver_and_tool,
    machine_state,
    prepare_machine,
    release_machine,
    run_cell,
    stop,
    taskset,
    within_20_percent,
)

# --full-rtt: sockperf prints round trips, not its default half round trip.
PERCENTILE_50 = re.compile(r"percentile 50\.000 =\s+(?P<p50>[\d.]+)")
VALID = re.compile(r"\[Valid Duration\] RunTime=(?P<s>[\d.]+) sec; SentMessages=(?P<n>\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if state == "0A" and int(local.split(":")[1], 16) == port:
            return True
    return False


@contextmanager
def sockperf_server(placement):
    """A `sockperf server --tcp` on a free loopback port at the placement's server CPU,
    listening; yields the target arguments of its clients, and stops it after."""
    server_cpu, _ = PLACEMENTS[placement]
    port = free_port()
    target = ["--tcp", "-i", "127.0.0.1", "-p", str(port)]
    server = subprocess.Popen([*taskset(server_cpu), "sockperf", "server", *target],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not listening(port):
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit("sockperf server did not start")
            time.sleep(0.01)
        yield target
    finally:
        stop(server)


def sockperf_median_rtt_us(placement, seconds):
    """Median round trip in us of one sockperf TCP ping-pong run, and its sample count."""
    _, client_cpu = PLACEMENTS[placement]
    with sockperf_server(placement) as target:
        client = subprocess.run(
            [*taskset(client_cpu), "sockperf", "ping-pong", *target, "-m", "14",
             "-t", str(seconds), "--full-rtt", "--no-rdtsc"],
            capture_output=True, text=True, timeout=seconds + 30)
    median, valid = PERCENTILE_50.search(client.stdout), VALID.search(client.stdout)
    if client.returncode != 0 or median is None or valid is None:
        sys.exit(f"sockperf ping-pong failed ({client.returncode}):\n"
                 f"{client.stdout}{client.stderr}")
    return float(median["p50"]), int(valid["n"])


def main():
    p = crosscheck_arguments(__doc__, 50000, 5000, "mwbench samples per run")
    p.add_argument("--seconds", type=int, default=3, help="sockperf seconds per run")
    args = p.parse_args()

    driver = driver_and_tool(args.build_dir, "rawtcp", "sockperf", " (apt-get install sockperf)")
    latency_fd = prepare_machine()
    cell = ["--operation", "roundtrip", "--transport", "tcp", "--payload-bytes", "0"]

    rows = []
    for placement in args.placements:
        ours, theirs = [], []
        for rep in range(1, args.reps + 1):
            median_ns, _ = run_cell(driver, cell, placement, args.samples, args.warmup)
            ours.append(median_ns / 1000)
            rtt, count = sockperf_median_rtt_us(placement, args.seconds)
            theirs.append(rtt)
            print(f"{placement:9} rep {rep}: rawtcp {ours[-1]:7.2f} us   "
                  f"sockperf {theirs[-1]:7.2f} us ({count} round trips kept)")
        rows.append((placement, statistics.median(ours), statistics.median(theirs),
                     statistics.median(o / t for o, t in zip(ours, theirs, strict=True))))

    print(f"\nmedian round trip, us (median of {args.reps} runs); {machine_state()}")
    print(f"{'placement':9} {'rawtcp':>8} {'sockperf':>8} {'ratio':>6}  within 20 %")
    for placement, ours, theirs, ratio in rows:
        print(f"{placement:9} {ours:8.2f} {theirs:8.2f} {ratio:6.2f}  {within_20_percent(ratio)}")
    release_machine(latency_fd)


if __name__ == "__main__":
    main()
