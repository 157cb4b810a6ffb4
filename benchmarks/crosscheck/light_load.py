#!/usr/bin/env python3
"""Does an open loop at a light load answer as fast as the closed loop does?

Part 1 reads a run of suites/load.yaml (its experiments `load`, the sweep of
Poisson rates, and `closed`) and prints, per configuration (driver and
transport): its sustainable rate in the sweep (the highest rate below which
every rate kept the bound: the median over launches of each launch's
percentile under --bound-us, and at least 95% of the offered rate achieved),
the swept rate nearest a tenth of it from below (else the lowest swept), and
the median response time there against the closed loop's (each the median
over launches of each launch's p50, with the launches' range), and their
ratio: the goal is within 5%. The drivers whose open loop calls by AMI
(omniorb, ccm, java) are compared with their closed loop by AMI callbacks
too (experiment `closed-ami`, when the run has it), so that the ratio is the
open loop's alone, not the invocation's; the static closed loop is shown
beside it.

Part 2 asks the same of sockperf, the kernel's users' tool, on the same
machine and placement: `sockperf ping-pong` (a closed loop) against
`sockperf under-load --mps RATE --reply-every 1` (an open loop) at the
rates given, --reps launches of each in a random order. Where sockperf's own
open loop is as much slower than its closed loop as mwbench's is, the cost
is the machine's (what a call pays after an idle gap), not mwbench's.

    .venv/bin/mwbench run suites/load.yaml --filter load --filter closed \
        --filter closed-ami --db load.db
    .venv/bin/python benchmarks/crosscheck/light_load.py load.db --placement cross-cpu
"""

import argparse
import json
import random
import re
import sqlite3
import statistics
import subprocess
import sys
from collections import defaultdict

import mwbench_cell
from tcp import sockperf_server

from mwbench.load_level import parse_load
from mwbench.open_load import SUSTAINED, load_figures

PERCENTILES = {"50": "p50_us", "90": "p90_us", "99": "p99_us", "99.9": "p999_us"}
GOAL = 0.05  # the open loop's median within 5% of the closed loop's
SOCKPERF_P50 = re.compile(r"percentile 50\.000 =\s+(?P<p50>[\d.]+)")


def launches(db, run_id, experiment):
    """Each ok launch of `experiment`: ((driver, transport), load level, row)."""
    rows = db.execute("SELECT * FROM cells WHERE run_id = ? AND experiment = ? AND "
                      "status = 'ok'", (run_id, experiment))
    return [((row["driver"], row["transport"]), row["load"], row) for row in rows]


def sustainable_rate(by_rate, column, bound_us):
    """The highest swept rate below which every rate kept the bound, or None."""
    kept = None
    for rate in sorted(by_rate):
        rows = by_rate[rate]
        figure = statistics.median(row[column] for row in rows)
        achieved = statistics.median(
            (f.achieved_fraction if (f := load_figures(row["measurer_header"])) else 0.0)
            for row in rows)
        if figure >= bound_us or achieved < SUSTAINED:
            break
        kept = rate
    return kept


def light_rate(rates, sustainable):
    """The swept rate nearest a tenth of the sustainable one from below, else the lowest."""
    light = [rate for rate in rates if sustainable and rate <= sustainable / 10]
    return max(light) if light else min(rates)


def p50s(rows):
    values = [row["p50_us"] for row in rows]
    return statistics.median(values), min(values), max(values)


def part_one(db, run_id, column, bound_us, percentile):
    sweep = defaultdict(lambda: defaultdict(list))
    for key, level, row in launches(db, run_id, "load"):
        sweep[key][parse_load(level).rate_per_s].append(row)
    closed, closed_ami = defaultdict(list), defaultdict(list)
    for key, _, row in launches(db, run_id, "closed"):
        closed[key].append(row)
    for key, _, row in launches(db, run_id, "closed-ami"):
        closed_ami[key].append(row)
    if not sweep or not closed:
        sys.exit(f"run {run_id} has no ok launches of experiments 'load' and 'closed' "
                 "(mwbench run suites/load.yaml --filter load --filter closed "
                 "--filter closed-ami)")
    print(f"run {run_id}: sustainable = every swept rate up to it kept p{percentile} < "
          f"{bound_us:g} us and {SUSTAINED:.0%} achieved; p50 = median over launches "
          "[launches' range], us; ratio = open / closed by the open loop's invocation")
    print(f"{'configuration':18} {'sustained':>9} {'light':>7} {'closed p50':>22} "
          f"{'closed AMI p50':>22} {'open p50':>22} {'ratio':>6}  within 5%")
    for key in sorted(sweep):
        if key not in closed:
            continue
        sustained = sustainable_rate(sweep[key], column, bound_us)
        light = light_rate(list(sweep[key]), sustained)
        closed_p50, open_p50 = p50s(closed[key]), p50s(sweep[key][light])
        ami_p50 = p50s(closed_ami[key]) if key in closed_ami else None
        ratio = open_p50[0] / (ami_p50 or closed_p50)[0]
        shown = f"{sustained:9.0f}" if sustained else f"{'none':>9}"
        print(f"{' '.join(key):18} {shown} {light:7.0f} {_ranged(closed_p50):>22} "
              f"{_ranged(ami_p50) if ami_p50 else '-':>22} {_ranged(open_p50):>22} "
              f"{ratio:6.2f}  {'yes' if abs(ratio - 1) <= GOAL else 'no'}")


def _ranged(figures):
    median, low, high = figures
    return f"{median:.2f} [{low:.2f}-{high:.2f}]"


def sockperf_p50_us(placement, seconds, mps=None):
    """The median round trip (us) of one sockperf run: ping-pong, or under-load at mps."""
    _, client_cpu = mwbench_cell.PLACEMENTS[placement]
    mode = ["ping-pong"] if mps is None else ["under-load", "--mps", str(mps),
                                              "--reply-every", "1"]
    with sockperf_server(placement) as target:
        client = subprocess.run([*mwbench_cell.taskset(client_cpu), "sockperf", *mode,
                                 *target, "-m", "14", "-t", str(seconds), "--full-rtt"],
                                capture_output=True, text=True, timeout=seconds + 60)
    found = SOCKPERF_P50.search(client.stdout)
    if client.returncode != 0 or found is None:
        sys.exit(f"sockperf {' '.join(mode)} failed ({client.returncode}):\n"
                 f"{client.stdout}{client.stderr}")
    return float(found["p50"])


def part_two(placement, rates, reps, seconds):
    runs = [None, *rates] * reps
    random.shuffle(runs)
    found = defaultdict(list)
    for mps in runs:
        found[mps].append(sockperf_p50_us(placement, seconds, mps))
    closed = statistics.median(found[None])
    print(f"\nsockperf, {placement}, {reps} launches of {seconds} s each in a random order; "
          "p50 = median over launches [launches' range], us")
    print(f"{'loop':22} {'p50':>22} {'ratio':>6}")
    print(f"{'ping-pong (closed)':22} {_ranged((closed, min(found[None]), max(found[None]))):>22}")
    for mps in rates:
        median = statistics.median(found[mps])
        print(f"{f'under-load {mps}/s':22} "
              f"{_ranged((median, min(found[mps]), max(found[mps]))):>22} "
              f"{median / closed:6.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("db", help="the database of a run of suites/load.yaml")
    p.add_argument("--run", type=int, help="its run id (default: the latest with 'closed')")
    p.add_argument("--bound-us", type=float, default=500.0,
                   help="the bound of the sustainable rate, us (suites/load.yaml's)")
    p.add_argument("--percentile", choices=PERCENTILES, default="99",
                   help="the percentile the bound applies to")
    p.add_argument("--placement", choices=mwbench_cell.PLACEMENTS, default="cross-cpu")
    p.add_argument("--sockperf-rates", type=int, nargs="*", default=[1000, 2000, 5000],
                   help="under-load rates for part 2 (none: skip it)")
    p.add_argument("--reps", type=int, default=5, help="sockperf launches of each")
    p.add_argument("--seconds", type=int, default=3, help="seconds per sockperf launch")
    args = p.parse_args()

    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    run_id = args.run or db.execute("SELECT max(run_id) FROM cells WHERE experiment = "
                                    "'closed'").fetchone()[0]
    if run_id is None:
        sys.exit(f"{args.db}: no run with an experiment 'closed'")
    machine = json.loads(db.execute("SELECT environment FROM runs WHERE id = ?",
                                    (run_id,)).fetchone()[0])["machine"]
    print(f"machine: {machine['cpu_model']}, {machine['cpu_count']} CPUs, cpuidle "
          f"{machine['cpuidle_driver']}")
    part_one(db, run_id, PERCENTILES[args.percentile], args.bound_us, args.percentile)
    if args.sockperf_rates:
        mwbench_cell.driver_and_tool(mwbench_cell.default_build_dir(), "rawtcp", "sockperf",
                                     " (apt-get install sockperf)")
        latency_fd = mwbench_cell.prepare_machine(f"sockperf at {args.placement}")
        part_two(args.placement, args.sockperf_rates, args.reps, args.seconds)
        mwbench_cell.release_machine(latency_fd)


if __name__ == "__main__":
    main()
