#!/usr/bin/env python3
"""Footprint of mwccm: static (text/data/bss) and dynamic (peak RSS).

Runs binutils `size` on libmwccm, the component servers and the footprint
programs, with and without components, then hosts N = 1, 10, 100, 1000
plain servants and N components (one facet each), REPS times each,
alternately, and prints the median VmHWM and VmRSS of each and the ratio
components / plain at the largest N. The target (docs/performance.md): at 1,000 the
components stay within 2x the plain servants.

    python3 benchmarks/footprint/run.py [--build-dir build] [--reps 3]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COUNTS = [1, 10, 100, 1000]
TARGET_RATIO = 2.0


def size_of(path):
    """text, data, bss of one binary (Berkeley format of binutils `size`)."""
    out = subprocess.run(["size", "-B", str(path)], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    text, data, bss = (int(field) for field in out[1].split()[:3])
    return text, data, bss


def static_table(build):
    binaries = [
        ("libmwccm.so (the runtime)", build / "components/libmwccm.so"),
        ("mwccm-component-server (no components)",
         build / "components/server/mwccm-component-server"),
        ("mwccm-footprint-component-server (Unit linked in)",
         build / "benchmarks/footprint/mwccm-footprint-component-server"),
        ("mwccm-footprint-plain (no components)",
         build / "benchmarks/footprint/mwccm-footprint-plain"),
        ("mwccm-footprint-components (Unit linked in)",
         build / "benchmarks/footprint/mwccm-footprint-components"),
        ("libmwccm_footprint_unit_module.so (Unit, dynamic)",
         build / "benchmarks/footprint/libmwccm_footprint_unit_module.so"),
        ("mwccm-example-roundtrip-pair (Echo, Pinger linked in)",
         build / "components/examples/mwccm-example-roundtrip-pair"),
    ]
    print("Static footprint (bytes; `size -B`, shared libraries not included)")
    print(f"{'binary':56} {'text':>10} {'data':>8} {'bss':>8}")
    for label, path in binaries:
        if not path.exists():
            print(f"{label:56} (not built: {path})")
            continue
        text, data, bss = size_of(path)
        print(f"{label:56} {text:>10} {data:>8} {bss:>8}")
    print()


def host(build, kind, count):
    program = build / "benchmarks/footprint" / f"mwccm-footprint-{kind}"
    done = subprocess.run([str(program), str(count)], check=True, capture_output=True,
                          text=True, timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


def dynamic_table(build, reps):
    results = {}
    for count in COUNTS:
        for _ in range(reps):
            for kind in ("plain", "components"):  # alternate: drift hits both alike
                results.setdefault((kind, count), []).append(host(build, kind, count))

    def median(kind, count, key):
        return statistics.median(r[key] for r in results[(kind, count)])

    print(f"Dynamic footprint (KiB; median of {reps}; added = VmRSS after - VmRSS before hosting)")
    print(f"{'N':>6} {'plain HWM':>10} {'comp HWM':>10} {'plain RSS':>10} {'comp RSS':>10}"
          f" {'plain added':>12} {'comp added':>11}")
    for count in COUNTS:
        added = {k: median(k, count, "vm_rss_kib") - median(k, count, "rss_before_kib")
                 for k in ("plain", "components")}
        print(f"{count:>6} {median('plain', count, 'vm_hwm_kib'):>10.0f}"
              f" {median('components', count, 'vm_hwm_kib'):>10.0f}"
              f" {median('plain', count, 'vm_rss_kib'):>10.0f}"
              f" {median('components', count, 'vm_rss_kib'):>10.0f}"
              f" {added['plain']:>12.0f} {added['components']:>11.0f}")
    top = COUNTS[-1]
    hwm_ratio = median("components", top, "vm_hwm_kib") / median("plain", top, "vm_hwm_kib")
    plain_added = median("plain", top, "vm_rss_kib") - median("plain", top, "rss_before_kib")
    comp_added = median("components", top, "vm_rss_kib") - median("components", top,
                                                                  "rss_before_kib")
    verdict = "within" if hwm_ratio <= TARGET_RATIO else "OVER"
    print(f"\nratio at N={top}: peak RSS components/plain = {hwm_ratio:.2f} "
          f"({verdict} the {TARGET_RATIO:.0f}x target)")
    if plain_added > 0:
        print(f"ratio at N={top} of what the objects added: {comp_added / plain_added:.2f} "
              f"({comp_added / top:.2f} KiB per component, "
              f"{plain_added / top:.2f} KiB per servant)")
    return hwm_ratio


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path,
                        default=Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")))
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    build = args.build_dir.resolve()
    print(f"machine: {platform.node()} {platform.machine()}, kernel {platform.release()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; build {build}\n")
    static_table(build)
    ratio = dynamic_table(build, args.reps)
    sys.exit(0 if ratio <= TARGET_RATIO else 1)


if __name__ == "__main__":
    main()
