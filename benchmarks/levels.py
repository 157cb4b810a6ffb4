"""What sets the level a process pair settles at: memory layout, the CPU, the idle hold, or time.

A round trip of one configuration lands near one of a few levels per process
pair, and a figure from one pair is a draw (docs/performance.md, "Launches").
This study launches rawtcp and omniORB pairs (TCP, both ends on one CPU),
each launch a new pair, under every combination of three settings that could
decide the level:

- env: the environment as it is (`fixed`), or padded per launch by a variable
  of 0-4,095 random bytes (`padded`), which moves the stack's start and the
  offsets of everything on it (Mytkowicz et al., ASPLOS 2009, moved run
  times by large factors with the environment's size alone);
- cpu: both ends pinned to CPU 0 or to CPU 1;
- hold: the idle hold taken (/dev/cpu_dma_latency at 0) or not.

Every block runs each of the 16 combinations once, in a random order (the
seed is printed), so that time (a slow stretch of the machine) touches every
combination alike and can be measured as its own effect: the share of the
launches' spread that their block explains, against the share a random
assignment to blocks explains. For each setting it prints the level of its
two values (median of launch medians, ratio with a bootstrap interval over
blocks) and the spread of launch medians under each (robust coefficient of
variation), so that a setting that moves the level and one that removes the
spread can be told apart.

    .venv/bin/python benchmarks/levels.py --blocks 24 [--seed N] [--json levels.json]
"""

import argparse
import itertools
import json
import os
import secrets
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mwbench.resultfile import read_result_file

REPO = Path(__file__).resolve().parents[1]
DRIVERS = ("rawtcp", "omniorb")
SETTINGS = {"env": ("fixed", "padded"), "cpu": (0, 1), "hold": (True, False)}
PAD_VARIABLE = "MWBENCH_STUDY_PAD"
MAX_PAD = 4096
START_S = 10.0


def launch(build: Path, driver: str, cpu: int, environment: dict, samples: int, warmup: int,
           scratch: Path) -> float:
    """One launch: a new server and client on `cpu`; the median of the client's samples."""
    program = str(build / "drivers" / driver / f"mwbench-driver-{driver}")
    cell = ["--operation", "roundtrip", "--transport", "tcp", "--payload-bytes", "0",
            "--cpu", str(cpu)]
    endpoint, output = scratch / "endpoint", scratch / "client.result"
    endpoint.unlink(missing_ok=True)
    server = subprocess.Popen([program, "--role", "server", *cell, "--endpoint-file",
                               str(endpoint), "--output", str(scratch / "server.result")],
                              env=environment, start_new_session=True)
    try:
        deadline = time.monotonic() + START_S
        while not endpoint.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"{driver} server did not publish its endpoint")
            time.sleep(0.005)
        subprocess.run([program, "--role", "client", *cell, "--endpoint-file", str(endpoint),
                        "--samples", str(samples), "--warmup", str(warmup), "--batch", "1",
                        "--output", str(output)], env=environment, check=True)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=START_S)
    return float(np.median(read_result_file(output, samples).samples_ns))


def padded(environment: dict, rng: np.random.Generator) -> dict:
    return {**environment, PAD_VARIABLE: "x" * int(rng.integers(0, MAX_PAD))}


class IdleHold:
    """/dev/cpu_dma_latency held at 0 while open (placement.py does the same for cells)."""

    def __init__(self, wanted: bool):
        self.fd = None
        if wanted:
            self.fd = os.open("/dev/cpu_dma_latency", os.O_WRONLY)
            os.write(self.fd, struct.pack("i", 0))

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self.fd is not None:
            os.close(self.fd)


def measure(args) -> list[dict]:
    rng = np.random.default_rng(args.seed)
    combinations = [dict(zip(("driver", *SETTINGS), values, strict=True))
                    for values in itertools.product(DRIVERS, *SETTINGS.values())]
    environment = {k: v for k, v in os.environ.items() if k != PAD_VARIABLE}
    launches = []
    with tempfile.TemporaryDirectory(prefix="mwbench-levels-") as scratch:
        for block in range(args.blocks):
            for index in rng.permutation(len(combinations)):
                c = combinations[index]
                env = padded(environment, rng) if c["env"] == "padded" else environment
                with IdleHold(c["hold"]):
                    median = launch(args.build_dir, c["driver"], c["cpu"], env, args.samples,
                                    args.warmup, Path(scratch))
                launches.append({**c, "block": block, "order": len(launches),
                                 "median_ns": median})
            print(f"block {block + 1}/{args.blocks}", file=sys.stderr)
    return launches


def robust_cv(values: np.ndarray) -> float:
    """The spread of launch medians: 1.4826 MAD over the median (a standard deviation for
    normal values, unmoved by one pair at another level)."""
    return float(1.4826 * np.median(np.abs(values - np.median(values))) / np.median(values))


def block_share(launches: list[dict], rng: np.random.Generator, shuffles: int = 2000):
    """The share of the launches' log-spread around their combination's median that their
    block explains, and the same share with blocks assigned at random (its 95th
    percentile): time matters if the first exceeds the second."""
    keys = sorted({_combination(x) for x in launches})
    blocks = sorted({x["block"] for x in launches})
    residual = np.full((len(keys), len(blocks)), np.nan)
    for x in launches:
        residual[keys.index(_combination(x)), blocks.index(x["block"])] = np.log(x["median_ns"])
    residual -= np.nanmedian(residual, axis=1, keepdims=True)

    def share(r):
        block_means = np.nanmean(r, axis=0)
        return float(np.nanvar(np.broadcast_to(block_means, r.shape)) / np.nanvar(r))

    observed = share(residual)
    null = [share(np.array([rng.permutation(row) for row in residual])) for _ in range(shuffles)]
    return observed, float(np.percentile(null, 95))


def setting_effect(launches: list[dict], driver: str, setting: str, rng: np.random.Generator,
                   replicates: int = 2000):
    """Level ratio of the setting's second value to its first (median over blocks of the
    ratio of the block's medians), with a bootstrap interval over blocks."""
    low, high = SETTINGS[setting]
    per_block = {}
    for x in launches:
        if x["driver"] == driver:
            per_block.setdefault(x["block"], {}).setdefault(x[setting], []).append(
                x["median_ns"])
    ratios = np.array([np.median(v[high]) / np.median(v[low]) for v in per_block.values()])
    replicas = [np.median(rng.choice(ratios, ratios.size)) for _ in range(replicates)]
    return float(np.median(ratios)), *np.percentile(replicas, [2.5, 97.5])


def report(launches: list[dict], seed: int) -> None:
    rng = np.random.default_rng(seed)
    blocks = len({x["block"] for x in launches})
    print(f"{len(launches)} launches in {blocks} blocks (seed {seed}), TCP round trip, "
          "both ends on one CPU; medians in µs")
    print("\n| driver | env | cpu | hold | launches | median | min–max | max/min | robust CV |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted({_combination(x) for x in launches}, key=str):
        values = np.array([x["median_ns"] for x in launches if _combination(x) == key]) / 1e3
        driver, env, cpu, hold = key
        print(f"| {driver} | {env} | {cpu} | {'held' if hold else 'not held'} | {values.size} "
              f"| {np.median(values):.2f} | {values.min():.2f}–{values.max():.2f} | "
              f"{values.max() / values.min():.2f} | {robust_cv(values):.1%} |")
    print("\n| driver | setting | level ratio (second/first) [95%] | spread under each |")
    print("| --- | --- | ---: | --- |")
    for driver in DRIVERS:
        for setting, (first, second) in SETTINGS.items():
            ratio, low, high = setting_effect(launches, driver, setting, rng)
            spreads = [robust_cv(np.array([x["median_ns"] for x in launches
                                           if x["driver"] == driver and x[setting] == value]))
                       for value in (first, second)]
            print(f"| {driver} | {setting}: {first} → {second} | {ratio:.3f} "
                  f"[{low:.3f}–{high:.3f}] | {spreads[0]:.1%} → {spreads[1]:.1%} |")
    observed, null95 = block_share(launches, rng)
    print(f"\ntime: the block of a launch explains {observed:.0%} of the launches' spread "
          f"around their combination's median; blocks drawn at random explain up to "
          f"{null95:.0%} (95th percentile of 2,000 shuffles)")
    paired, alone = pairing(launches)
    print(f"pairing: omniORB over rawtcp launch by launch (the two launches of one block and "
          f"settings) spreads {paired:.1%} (robust CV over blocks); omniORB's launches alone "
          f"{alone:.1%}")


def pairing(launches: list[dict]) -> tuple[float, float]:
    """The spread of omniORB's ratio to rawtcp, paired within a block and settings, against
    the spread of omniORB's launch medians, both as a median over the settings."""
    by = {(x["block"], x["env"], x["cpu"], x["hold"], x["driver"]): x["median_ns"]
          for x in launches}
    paired, alone = [], []
    for settings in itertools.product(*SETTINGS.values()):
        blocks = sorted({k[0] for k in by if k[1:4] == settings})
        ratios = np.array([by[(b, *settings, "omniorb")] / by[(b, *settings, "rawtcp")]
                           for b in blocks])
        paired.append(robust_cv(ratios))
        alone.append(robust_cv(np.array([by[(b, *settings, "omniorb")] for b in blocks])))
    return float(np.median(paired)), float(np.median(alone))


def _combination(x: dict) -> tuple:
    return x["driver"], x["env"], x["cpu"], x["hold"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=24)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", type=Path, help="also write every launch here")
    parser.add_argument("--from-json", type=Path, help="report on launches measured before")
    parser.add_argument("--build-dir", type=Path,
                        default=Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")))
    args = parser.parse_args()
    if args.from_json:
        stored = json.loads(args.from_json.read_text())
        report(stored["launches"], stored["seed"])
        return
    args.seed = secrets.randbits(32) if args.seed is None else args.seed
    launches = measure(args)
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "launches": launches}))
    report(launches, args.seed)


if __name__ == "__main__":
    main()
