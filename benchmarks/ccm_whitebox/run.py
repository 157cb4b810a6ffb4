#!/usr/bin/env python3
"""White-box functional-path analysis of a component call (CCMPerf's white-box metrics).

Runs mwbench-driver-ccm-probes (drivers/ccm; its probes exist in that build only)
for obj-obj and comp-comp, remote over TCP and collocated, both ends on one CPU,
and prints per layer of the call path the median, p25-p75 and p99 in ns:

    client -> stub      the component client's executor and its receptacle (comp only)
    stub -> upcall      the request: stub, marshalling, transport, ORB, POA dispatch
    glue -> executor    the glue servant's forward to the executor (comp only)
    executor            the executor's work (a plain servant's, for obj)
    executor -> stub    the reply: skeleton, marshalling, transport, stub
    stub -> client      back through the receptacle and executor (comp only)
    total               the whole call as the measuring thread sees it

Every point is one CLOCK_MONOTONIC read, the same clock in both processes, so a
remote call's server points line up with its client points; each probe adds one
clock read (printed) to the layer it ends. The last --samples calls of each end
are paired, in order. Usage (from the repository root, after building):

    MWBENCH_BUILD_DIR=build python3 benchmarks/ccm_whitebox/run.py [--samples N] [--cpu N]
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = BUILD / "drivers" / "ccm" / "mwbench-driver-ccm-probes"

# ccm_probes.hpp's ProbePoint, in path order.
CLIENT_CALL, STUB_CALL, GLUE_ENTRY, EXECUTOR_CALL, EXECUTOR_RETURN, STUB_RETURN, CLIENT_RETURN = \
    range(7)


def read_probes(path):
    """Records (point, ns) of every thread, in time order: a server's calls may be
    served by more than one ORB thread, each with its own buffer."""
    records = []
    for line in Path(path).read_text().splitlines():
        if line.startswith("#"):
            sys.exit(f"{path}: {line}")  # a full buffer: fewer calls or a larger buffer
        _, point, ns = line.split()
        records.append((int(point), int(ns)))
    return sorted(records, key=lambda record: record[1])


def calls(records, first_point, last_point):
    """Split records into calls, each from first_point to last_point: dict point -> ns."""
    out, current = [], None
    for point, ns in records:
        if point == first_point:
            current = {}
        if current is not None:
            current[point] = ns
            if point == last_point:
                out.append(current)
                current = None
    return out


def run(scenario, mode, args, work):
    tag = f"{scenario}-{mode}"
    common = ["--operation", "roundtrip", "--option", f"scenario={scenario}",
              "--cpu", str(args.cpu)]
    client_probes = work / f"{tag}.client"
    measure = ["--samples", str(args.samples), "--warmup", str(args.warmup), "--batch", "1",
               "--output", work / f"{tag}.result", "--option", f"probe_file={client_probes}"]
    if mode == "collocated":
        subprocess.run([DRIVER, "--role", "collocated", "--transport", "inproc", *common,
                        *measure], check=True, timeout=300)
        path = calls(read_probes(client_probes), CLIENT_CALL, CLIENT_RETURN)
    else:
        server_probes = work / f"{tag}.server"
        endpoint = work / f"{tag}.endpoint"
        remote = [*common, "--transport", "tcp", "--endpoint-file", endpoint]
        server = subprocess.Popen([DRIVER, "--role", "server", *remote,
                                   "--option", f"probe_file={server_probes}"])
        try:
            deadline = time.monotonic() + 20
            while not endpoint.exists():
                if server.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"{tag}: the server did not start")
                time.sleep(0.01)
            subprocess.run([DRIVER, "--role", "client", *remote, *measure], check=True,
                           timeout=300)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=20)
        client = calls(read_probes(client_probes), CLIENT_CALL, CLIENT_RETURN)
        upcalls = calls(read_probes(server_probes), GLUE_ENTRY, EXECUTOR_RETURN)
        n = min(len(client), len(upcalls), args.samples)
        path = [{**c, **u} for c, u in zip(client[-n:], upcalls[-n:], strict=True)]
    header = json.loads((work / f"{tag}.result").read_text().split("\n")[1])
    return path[-args.samples:], header["clock"]["read_cost_ns"]


def layers(path):
    """Each layer's durations (ns) over the calls; a layer a path lacks is left out."""
    def span(a, b):
        return np.array([c[b] - c[a] for c in path if a in c and b in c], dtype=float)

    component = STUB_CALL in path[0]
    start = STUB_CALL if component else CLIENT_CALL
    end = STUB_RETURN if component else CLIENT_RETURN
    rows = []
    if component:
        rows.append(("client -> stub", span(CLIENT_CALL, STUB_CALL)))
    rows.append(("stub -> upcall", span(start, GLUE_ENTRY)))
    if EXECUTOR_CALL in path[0]:
        rows.append(("glue -> executor", span(GLUE_ENTRY, EXECUTOR_CALL)))
        rows.append(("executor", span(EXECUTOR_CALL, EXECUTOR_RETURN)))
    else:
        rows.append(("executor", span(GLUE_ENTRY, EXECUTOR_RETURN)))
    rows.append(("executor -> stub", span(EXECUTOR_RETURN, end)))
    if component:
        rows.append(("stub -> client", span(STUB_RETURN, CLIENT_RETURN)))
    rows.append(("total", span(CLIENT_CALL, CLIENT_RETURN)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--cpu", type=int, default=0, help="both ends pinned to this CPU")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if not DRIVER.exists():
        sys.exit(f"{DRIVER} not built (set MWBENCH_BUILD_DIR)")
    results = []
    with tempfile.TemporaryDirectory(prefix="mwbench-whitebox-") as tmp:
        for mode in ("remote", "collocated"):
            for scenario in ("obj-obj", "comp-comp"):
                path, read_cost = run(scenario, mode, args, Path(tmp))
                for layer, ns in layers(path):
                    p25, p50, p75, p99 = np.percentile(ns, [25, 50, 75, 99])
                    results.append({"mode": mode, "scenario": scenario, "layer": layer,
                                    "calls": int(ns.size), "p25_ns": p25, "median_ns": p50,
                                    "p75_ns": p75, "p99_ns": p99,
                                    "clock_read_ns": read_cost})
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'mode':<11}{'scenario':<10}{'layer':<18}{'median':>9}{'p25-p75':>16}{'p99':>9}"
          "   (ns; each probe adds one clock read of "
          f"{results[0]['clock_read_ns']:.0f} ns)")
    for r in results:
        print(f"{r['mode']:<11}{r['scenario']:<10}{r['layer']:<18}{r['median_ns']:>9.0f}"
              f"{r['p25_ns']:>8.0f}-{r['p75_ns']:<7.0f}{r['p99_ns']:>9.0f}")


if __name__ == "__main__":
    main()
