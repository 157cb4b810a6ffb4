#!/usr/bin/env python3
"""Cross-check rawtcp's highest sustainable rate under open-loop load against sockperf's.

For each placement, searches the highest rate of calls per second whose round trip
at --percentile (99 by default) stays under --bound-us and whose achieved rate is
within 5% of the rate offered, for both: mwbench's rawtcp `roundtrip` cell with
`--load constant:RATE` (8-byte echo; response time from each call's intended start) and `sockperf
under-load --tcp --mps RATE --reply-every 1` against `sockperf server --tcp`
(14-byte messages; round trip from each actual send). The search doubles the rate
from --low until a probe fails or --high is passed, then bisects --steps times.
Prints both rates and their ratio.

    python3 benchmarks/crosscheck/tcp_load.py --bound-us 200 --placements cross-cpu

On a virtual machine whose host takes its vCPUs away for milliseconds about 1%
of the time, every call that falls in such a stall waits for it, in both
tools' open loops, so no rate keeps a p99 of hundreds of µs; --percentile 90
then shows where each one's queue starts to grow.
"""

import math
import re
import subprocess
import sys

import mwbench_cell
from tcp import sockperf_server

PERCENTILES = ("50", "90", "99", "99.9")
VALID = re.compile(r"\[Valid Duration\] RunTime=(?P<s>[\d.]+) sec; SentMessages=(?P<sent>\d+); "
                   r"ReceivedMessages=(?P<received>\d+)")
KEPT = 0.95  # the achieved rate a probe must reach, as a fraction of the offered one
SOCKPERF_WARMUP_S = 0.4  # sockperf's own warm-up, matched by mwbench's
# sockperf's -t is whole seconds, of which it keeps about 0.5 s fewer (its warm-up and
# the run's ends) as its "valid duration".
SOCKPERF_DROPPED_S = 1


class Probe:
    """One run at one rate: its round trip at the percentile (us), achieved rate, and
    verdict."""

    def __init__(self, rate, figure_us, achieved_per_s, bound_us, complete=True):
        self.rate, self.figure_us, self.achieved_per_s = rate, figure_us, achieved_per_s
        self.passed = complete and figure_us <= bound_us and achieved_per_s >= KEPT * rate

    def __str__(self):
        verdict = "kept" if self.passed else "not kept"
        return (f"{self.rate:9.0f}/s: figure {self.figure_us:9.1f} us, achieved "
                f"{self.achieved_per_s:9.0f}/s: {verdict}")


def mwbench_probe(driver, placement, rate, seconds, bound_us, percentile):
    cell = ["--operation", "roundtrip", "--transport", "tcp", "--payload-bytes", "0"]
    samples = max(1000, math.ceil(rate * seconds))
    warmup = max(100, math.ceil(rate * SOCKPERF_WARMUP_S))
    header, values = mwbench_cell.run_cell_samples(driver, cell, placement, samples, warmup,
                                      client_options=["--load", f"constant:{rate:g}"])
    load = header["load"]
    if not values:
        return Probe(rate, math.inf, 0.0, bound_us, complete=False)
    figure_us = sorted(values)[math.ceil(float(percentile) / 100 * len(values)) - 1] / 1000
    return Probe(rate, figure_us, load["achieved_per_s"], bound_us,
                 complete=load["lost"] == 0)


def sockperf_probe(placement, rate, seconds, bound_us, percentile):
    """Without --no-rdtsc: with it, sockperf 3.7's under-load sends about 38% of --mps
    (seen at 100, 500 and 20,000 per second); on its default clock, the TSC, it keeps
    the rate."""
    _, client_cpu = mwbench_cell.PLACEMENTS[placement]
    with sockperf_server(placement) as target:
        client = subprocess.run(
            [*mwbench_cell.taskset(client_cpu), "sockperf", "under-load", *target, "-m", "14",
             "-t", str(math.ceil(seconds) + SOCKPERF_DROPPED_S), "--mps", f"{rate:.0f}",
             "--reply-every", "1", "--full-rtt"],
            capture_output=True, text=True, timeout=seconds + 60)
    reported = re.search(rf"percentile {float(percentile):.3f} =\s+(?P<us>[\d.]+)",
                         client.stdout)
    valid = VALID.search(client.stdout)
    if client.returncode != 0:
        sys.exit(f"sockperf under-load failed ({client.returncode}):\n"
                 f"{client.stdout}{client.stderr}")
    if reported is None or valid is None:  # "No valid observations": it could not keep up
        return Probe(rate, math.inf, 0.0, bound_us, complete=False)
    sent, received = int(valid["sent"]), int(valid["received"])
    return Probe(rate, float(reported["us"]), sent / float(valid["s"]), bound_us,
                 complete=received == sent)


def highest_kept_rate(probe, low, high, steps, label):
    """Doubling from `low` while probes pass (up to `high`), then `steps` bisections
    between the last rate kept and the first not; the highest rate kept, or None."""
    kept, failed, rate = None, None, low
    while rate <= high:
        result = probe(rate)
        print(f"  {label:8} {result}")
        if not result.passed:
            failed = rate
            break
        kept, rate = rate, rate * 2
    if kept is None or failed is None:
        return kept
    for _ in range(steps):
        rate = round((kept + failed) / 2)
        result = probe(rate)
        print(f"  {label:8} {result}")
        kept, failed = (rate, failed) if result.passed else (kept, rate)
    return kept


def main():
    p = mwbench_cell.crosscheck_arguments(__doc__, 0, 0, "unused: a probe lasts --seconds")
    p.set_defaults(placements=["cross-cpu", "unpinned"], reps=1)
    p.add_argument("--bound-us", type=float, default=200.0,
                   help="the round trip at --percentile a rate must keep, in us")
    p.add_argument("--percentile", choices=PERCENTILES, default="99",
                   help="the percentile --bound-us applies to")
    p.add_argument("--low", type=float, default=1000, help="first rate probed, calls/s")
    p.add_argument("--high", type=float, default=512000, help="highest rate probed, calls/s")
    p.add_argument("--steps", type=int, default=4, help="bisection steps after doubling")
    p.add_argument("--seconds", type=float, default=3, help="measured seconds per probe")
    args = p.parse_args()

    driver = mwbench_cell.driver_and_tool(args.build_dir, "rawtcp", "sockperf",
                                          " (apt-get install sockperf)")
    bound = f"p{args.percentile} <= {args.bound_us:g} us"
    latency_fd = mwbench_cell.prepare_machine(bound)
    rows = []
    for placement in args.placements:
        for rep in range(1, args.reps + 1):
            print(f"{placement}, rep {rep}:")
            ours = highest_kept_rate(
                lambda rate, pl=placement: mwbench_probe(driver, pl, rate, args.seconds,
                                                         args.bound_us, args.percentile),
                args.low, args.high, args.steps, "rawtcp")
            theirs = highest_kept_rate(
                lambda rate, pl=placement: sockperf_probe(pl, rate, args.seconds,
                                                          args.bound_us, args.percentile),
                args.low, args.high, args.steps, "sockperf")
            rows.append((placement, ours, theirs))

    print(f"\nhighest rate kept with {bound} and {KEPT:.0%} of it "
          f"achieved, calls/s; {mwbench_cell.machine_state()}")
    print(f"{'placement':9} {'rawtcp':>9} {'sockperf':>9} {'ratio':>6}  within 20 %")
    for placement, ours, theirs in rows:
        if not ours or not theirs:
            shown = [f"{rate:9.0f}" if rate else f"{'-':>9}" for rate in (ours, theirs)]
            print(f"{placement:9} {shown[0]} {shown[1]}      -  (no rate kept)")
            continue
        ratio = ours / theirs
        print(f"{placement:9} {ours:9.0f} {theirs:9.0f} {ratio:6.2f}  "
              f"{mwbench_cell.within_20_percent(ratio)}")
    mwbench_cell.release_machine(latency_fd)


if __name__ == "__main__":
    main()
