#!/usr/bin/env python3
"""Cross-check the cyclonedds driver's round trip against Cyclone's own ddsperf.

For each placement and wait strategy, REPS times, alternately: mwbench's
cyclonedds `roundtrip` cell (server + client, UDP on loopback) and
`ddsperf pong` + `ddsperf ping` with the same placement, the same loopback
configuration (CYCLONEDDS_URI), the same trigger (waitset or listener) and
the smallest payload each has. Prints both medians as round trips in
microseconds and their ratio; they should agree within 20 % (README).

    python3 benchmarks/crosscheck/ddsperf.py --placements same-cpu unpinned
"""

import os
import re
import statistics
import subprocess
import sys

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

# ddsperf ping prints, once a second, the statistics of that second's pongs:
#   [pid] 3.004  host:pid size 12 mean 57.570us min 14.996us 50% 49.463us 90% ... cnt 8708
# Its figures are (time the pong was taken - time the ping was written) / 2
# (ddsperf.c, process_pong: update_roundtrip(..., (tnow - source_timestamp) / 2)):
# half the round trip, so we double them.
PING_LINE = re.compile(
    r"^\[\d+\] (?P<t>\d+\.\d+)\s+\S+ size (?P<size>\d+) mean (?P<mean>[\d.]+)us "
    r"min [\d.]+us 50% (?P<p50>[\d.]+)us 90% [\d.]+us 99% [\d.]+us max [\d.]+us cnt (?P<cnt>\d+)")
# and, for the process, its context switches in that second:
#   [pid] 3.004  rss:7.5MB vcsw:18615 ivcsw:3109 recvUC:5%+13% pong:12%+22%
SWITCH_LINE = re.compile(
    r"^\[\d+\] (?P<t>\d+\.\d+)\s+rss:\S+ vcsw:(?P<vcsw>\d+) ivcsw:(?P<ivcsw>\d+)")
# The first ping goes out 1 s after start and discovery takes a moment:
# the interval ending at 2 s is a warm-up.
FIRST_SECOND_KEPT = 2.5
# Each of the driver's waits, and ddsperf's trigger that does the same: chain is the
# driver's own form of ddsperf's listener (the pong's listener writes the next ping);
# the driver's listener hands every pong to its measuring thread, which ddsperf never does.
DDSPERF_TRIGGER = {"waitset": "waitset", "listener": "listener", "chain": "listener"}


def ddsperf_median_rtt_us(placement, wait, seconds, config_uri, domain):
    """Median round trip in us of one ddsperf ping/pong run, and its one-second intervals."""
    pong_cpu, ping_cpu = PLACEMENTS[placement]
    env = dict(os.environ, CYCLONEDDS_URI=config_uri)
    common = ["ddsperf", "-i", str(domain)]
    pong = subprocess.Popen([*taskset(pong_cpu), *common, "-D", str(seconds + 10), "pong", wait],
                            env=env, stdout=subprocess.DEVNULL)
    try:
        ping = subprocess.run([*taskset(ping_cpu), *common, "-D", str(seconds + 2), "ping", wait],
                              env=env, capture_output=True, text=True, timeout=seconds + 30)
    finally:
        stop(pong)
    if ping.returncode != 0:
        sys.exit(f"ddsperf ping failed ({ping.returncode}): {ping.stderr or ping.stdout}")
    intervals, switches = [], {}
    for line in ping.stdout.splitlines():
        m = PING_LINE.match(line)
        if m and float(m["t"]) >= FIRST_SECOND_KEPT:
            intervals.append({k: float(v) for k, v in m.groupdict().items()})
        m = SWITCH_LINE.match(line)
        if m:
            switches[m["t"]] = int(m["vcsw"]) + int(m["ivcsw"])
    for i in intervals:  # the ping process's switches per round trip in that second
        i["switches"] = switches.get(f"{i['t']:.3f}", 0) / i["cnt"]
    if not intervals:
        sys.exit(f"ddsperf ping printed no statistics:\n{ping.stdout}")
    # Each interval holds about as many pongs as the next (a closed loop, one
    # second each), so the median of their medians stands for the median.
    return 2 * statistics.median(i["p50"] for i in intervals), intervals


def main():
    p = crosscheck_arguments(__doc__, 20000, 2000, "mwbench samples per run")
    p.add_argument("--waits", nargs="+", choices=list(DDSPERF_TRIGGER),
                   default=list(DDSPERF_TRIGGER))
    p.add_argument("--seconds", type=int, default=5, help="ddsperf seconds measured per run")
    args = p.parse_args()

    driver = driver_and_tool(args.build_dir, "cyclonedds", "ddsperf", " (cyclonedds-tools)")
    config = args.build_dir / "drivers/cyclonedds/cyclonedds-loopback.xml"
    config_uri = f"file://{config}"
    domain = 1 + os.getpid() % 100
    latency_fd = prepare_machine(f"ddsperf domain {domain}; CYCLONEDDS_URI {config_uri}")
    cell = ["--operation", "roundtrip", "--transport", "udp", "--payload-bytes", "0"]

    rows = []
    for placement in args.placements:
        for wait in args.waits:
            ours, theirs = [], []
            for rep in range(1, args.reps + 1):
                option = ["--option", f"wait={wait}"]
                median_ns, header = run_cell(driver, cell, placement, args.samples,
                                             args.warmup, option, option)
                ours.append(median_ns / 1000)
                usage = header["rusage"]
                our_switches = (usage["voluntary_switches"] + usage["involuntary_switches"]) / \
                    header["sample_count"]
                rtt, intervals = ddsperf_median_rtt_us(placement, DDSPERF_TRIGGER[wait],
                                                       args.seconds, config_uri, domain)
                theirs.append(rtt)
                rate = statistics.median(i["cnt"] for i in intervals)
                their_switches = statistics.median(i["switches"] for i in intervals)
                print(f"{placement:9} {wait:8} rep {rep}: mwbench {ours[-1]:7.1f} us "
                      f"({our_switches:.2f} switches/call)   ddsperf {theirs[-1]:7.1f} us "
                      f"({their_switches:.2f} switches/call, {len(intervals)} s, "
                      f"{rate:.0f} pongs/s, size {intervals[0]['size']:.0f})")
            rows.append((placement, wait, statistics.median(ours), statistics.median(theirs),
                         statistics.median(o / t for o, t in zip(ours, theirs, strict=True))))

    print(f"\nmedian round trip, us (median of {args.reps} runs); {machine_state()}")
    print(f"{'placement':9} {'wait/trigger':17} {'mwbench':>8} {'ddsperf':>8} {'ratio':>6}  "
          "within 20 %")
    for placement, wait, ours, theirs, ratio in rows:
        pair = f"{wait}/{DDSPERF_TRIGGER[wait]}"
        print(f"{placement:9} {pair:17} {ours:8.1f} {theirs:8.1f} {ratio:6.2f}  "
              f"{within_20_percent(ratio)}")
    release_machine(latency_fd)


if __name__ == "__main__":
    main()
