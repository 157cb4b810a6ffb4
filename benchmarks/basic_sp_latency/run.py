#!/usr/bin/env python3
"""Basic SP's latency from tick to display (docs/deployment.md section 7).

Runs Basic SP at each rate, each variant a new process (or process tree)
per repetition, and reads the HUD's log (update number, latency in ns from
the RateGen tick's CLOCK_MONOTONIC time to the HUD's display):

  plain-chain   the same chain as plain C++ objects, no ORB (the baseline)
  static        the compiled one-process plan (basic_sp_one_process)
  dynamic       the same plan by mwccm-deploy: one component server
  static-rt     one_process_rt compiled: SCHED_FIFO 50 on CPU 0
  dynamic-rt    the same by mwccm-deploy
  static-plain-cxx, dynamic-plain-cxx  one_process_plain (Local_Interface
                connections), where this build has it

The first --warmup updates of each run are dropped. With --background N,
N CPU-burning stress-ng workers run during every run. Prints, per variant
and rate, the median of the runs' medians, p99 and max, and writes them
with the machine and placement to --output (JSON).

    python3 benchmarks/basic_sp_latency/run.py [--build-dir build] [--rates 20 1000]
        [--updates 400] [--repetitions 3] [--background 0] [--output out.json]
"""

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PLANS = REPO / "components" / "basic_sp" / "plans"


def variants(build):
    """name → (plan or None, compiled program, placement) of what this build has."""
    basic_sp = build / "components" / "basic_sp"
    found = {
        "plain-chain": (
            None,
            build / "benchmarks/basic_sp_latency/basic-sp-plain-chain",
            "unpinned",
        )
    }
    for suffix, plan, placement in (
        ("", "one_process", "unpinned"),
        ("-rt", "one_process_rt", "SCHED_FIFO 50, CPU 0"),
        ("-plain-cxx", "one_process_plain", "unpinned"),
    ):
        program = basic_sp / f"basic_sp_{plan}"
        if program.exists():
            found[f"static{suffix}"] = (None, program, placement)
            found[f"dynamic{suffix}"] = (PLANS / f"{plan}.cdp", None, placement)
    return found


def command(build, variant, rate, updates, log):
    plan, program, _ = variant
    overrides = ["--set", f"rate_gen.hertz={rate}", "--set", f"hud.log_file={log}"]
    if plan is None and program.name == "basic-sp-plain-chain":
        return [program, "--hertz", str(rate), "--updates", str(updates), "--log", log], None
    if plan is None:
        return [program, *overrides], "assembled"
    return (
        [
            build / "components/server/mwccm-deploy",
            plan,
            "--artifacts",
            build / "components/basic_sp",
            *overrides,
            "--wait",
        ],
        "mwccm-deploy: deployed",
    )


def run_once(build, variant, rate, updates, scratch):
    """The latencies (ns) of one run, in update order."""
    log = scratch / "hud.log"
    log.unlink(missing_ok=True)
    argv, ready = command(build, variant, rate, updates, log)
    process = subprocess.Popen(
        [str(a) for a in argv], cwd=scratch, stdout=subprocess.PIPE, text=True
    )
    if ready is not None:
        line = process.stdout.readline()
        if ready not in line:
            process.kill()
            raise RuntimeError(f"{argv[0]} did not start: {line!r}")
        # The run itself: the ticks the HUD must display, and one period more.
        time.sleep((updates + 1) / rate)
        process.send_signal(signal.SIGTERM)
    if process.wait(timeout=120) != 0:
        raise RuntimeError(f"{argv[0]} exited with {process.returncode}")
    return [int(line.split()[1]) for line in log.read_text().splitlines()]


def summary(latencies):
    ordered = sorted(latencies)
    return {
        "count": len(ordered),
        "median_ns": statistics.median(ordered),
        "p99_ns": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "max_ns": ordered[-1],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=REPO / "build")
    parser.add_argument("--rates", type=int, nargs="+", default=[20, 1000])
    parser.add_argument("--updates", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--background", type=int, default=0)
    parser.add_argument("--variants", nargs="*")
    parser.add_argument("--output", type=Path)
    arguments = parser.parse_args()
    build = arguments.build_dir.resolve()
    available = variants(build)
    chosen = arguments.variants or list(available)
    load = (
        subprocess.Popen(["stress-ng", "--cpu", str(arguments.background), "--quiet"])
        if arguments.background
        else None
    )
    results = []
    try:
        with tempfile.TemporaryDirectory(prefix="basic-sp-latency-") as scratch:
            for rate in arguments.rates:
                for name in chosen:
                    runs = []
                    for _ in range(arguments.repetitions):
                        latencies = run_once(
                            build,
                            available[name],
                            rate,
                            arguments.updates + arguments.warmup,
                            Path(scratch),
                        )
                        runs.append(summary(latencies[arguments.warmup :]))
                    row = {
                        "variant": name,
                        "rate_hz": rate,
                        "placement": available[name][2],
                        "median_of_medians_ns": statistics.median(r["median_ns"] for r in runs),
                        "p99_ns": statistics.median(r["p99_ns"] for r in runs),
                        "max_ns": max(r["max_ns"] for r in runs),
                        "runs": runs,
                    }
                    results.append(row)
                    median_us = row["median_of_medians_ns"] / 1e3
                    print(
                        f"{rate:>5} Hz  {name:<18} median {median_us:8.1f} us"
                        f"  p99 {row['p99_ns'] / 1e3:8.1f} us  max {row['max_ns'] / 1e3:8.1f} us"
                        f"  ({row['placement']})",
                        flush=True,
                    )
    finally:
        if load is not None:
            load.terminate()
            load.wait()
    if arguments.output:
        arguments.output.write_text(
            json.dumps(
                {
                    "machine": platform.uname()._asdict(),
                    "cpus": os.cpu_count(),
                    "background_cpu_workers": arguments.background,
                    "updates": arguments.updates,
                    "warmup": arguments.warmup,
                    "results": results,
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
