#!/usr/bin/env python3
"""Cross-check the zmq driver's REQ/REP round trip against libzmq's own perf programs.

Debian ships no binary of libzmq's `perf/` programs, so this script builds
`local_lat`, `remote_lat` and `inproc_lat` from the Debian source package of
the installed libzmq5 (the `.orig.tar.gz` through apt-get source, checked
against the SHA-256 in the package's `.dsc`), against the installed library,
and caches them under the build directory. Then, for each placement and
transport, REPS times, alternately: mwbench's zmq `roundtrip` cell and
`local_lat` + `remote_lat` (`inproc_lat` for inproc) with the same message
size. `remote_lat` prints the *mean half* round trip over its whole run
(`elapsed / (2 × count)`, no warm-up), so the script compares twice that with
mwbench's mean round trip, and prints mwbench's median beside it.

    python3 benchmarks/crosscheck/zmq.py --placements same-cpu unpinned
"""

import re
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from debian_source import installed_source, orig_tarball
from mwbench_cell import (
    PLACEMENTS,
    crosscheck_arguments,
    driver_and_tool,
    machine_state,
    prepare_machine,
    release_machine,
    run_cell_samples,
    run_collocated_samples,
    stop,
    taskset,
    within_20_percent,
)

PROGRAMS = ("local_lat", "remote_lat", "inproc_lat")
AVERAGE = re.compile(r"average latency: (?P<us>[\d.]+) \[us\]")
MESSAGE_BYTES = 8  # the zmq driver's roundtrip message: an 8-byte timestamp


def build_perf_programs(cache):
    """Builds the perf programs once per libzmq version; returns their folder."""
    _, version = installed_source("libzmq5")
    folder = cache / f"zmq-perf-{version}"
    if all((folder / name).exists() for name in PROGRAMS):
        return folder
    tarball, data = orig_tarball("libzmq5")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / tarball
        archive.write_bytes(data)
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers()
                       if re.search(r"/(perf|include)/[^/]+$", m.name) and m.isfile()]
            tar.extractall(tmp, members=members, filter="data")
        root = next(Path(tmp).glob("*/perf")).parent
        # inproc_lat includes the configure-generated platform.hpp only for its
        # Windows branches: on Linux an empty one serves.
        (root / "perf" / "platform.hpp").write_text("// Linux: nothing to configure\n")
        for name in PROGRAMS:
            subprocess.run(["g++", "-O2", "-o", str(folder / name),
                            str(root / "perf" / f"{name}.cpp"), "-lzmq", "-lpthread"],
                           check=True)
    print(f"built libzmq {version}'s {', '.join(PROGRAMS)} from {tarball} in {folder}")
    return folder


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def perf_mean_rtt_us(tools, transport, placement, count):
    """Twice the mean half round trip libzmq's tools print, in us."""
    server_cpu, client_cpu = PLACEMENTS[placement]
    size = str(MESSAGE_BYTES)
    if transport == "inproc":
        done = subprocess.run([*taskset(client_cpu), str(tools / "inproc_lat"), size,
                               str(count)], capture_output=True, text=True, timeout=300)
    else:
        with tempfile.TemporaryDirectory(prefix="mwbench-zmq-perf-") as tmp:
            address = (f"tcp://127.0.0.1:{free_port()}" if transport == "tcp"
                       else f"ipc://{tmp}/lat")
            local = subprocess.Popen([*taskset(server_cpu), str(tools / "local_lat"), address,
                                      size, str(count)], stdout=subprocess.DEVNULL)
            try:
                time.sleep(0.2)  # local_lat binds at once; REQ reconnects if it is early
                done = subprocess.run([*taskset(client_cpu), str(tools / "remote_lat"),
                                       address, size, str(count)],
                                      capture_output=True, text=True, timeout=300)
            finally:
                stop(local)
    found = AVERAGE.search(done.stdout)
    if done.returncode != 0 or found is None:
        sys.exit(f"libzmq perf tool failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return 2 * float(found["us"])


def mwbench_rtt_us(driver, transport, placement, samples, warmup):
    """(mean, median) round trip of one mwbench cell, in us."""
    cell = ["--operation", "roundtrip", "--transport", transport, "--payload-bytes", "0"]
    if transport == "inproc":
        _, values = run_collocated_samples(driver, cell, placement, samples, warmup)
    else:
        _, values = run_cell_samples(driver, cell, placement, samples, warmup)
    return statistics.fmean(values) / 1000, statistics.median(values) / 1000


def main():
    p = crosscheck_arguments(__doc__, 50000, 5000, "round trips per run, both sides")
    p.add_argument("--transports", nargs="+", choices=["tcp", "uds", "inproc"],
                   default=["tcp", "uds", "inproc"])
    args = p.parse_args()

    driver = driver_and_tool(args.build_dir, "zmq", "g++", "")
    tools = build_perf_programs(args.build_dir / "crosscheck")
    latency_fd = prepare_machine()

    rows = []
    for transport in args.transports:
        for placement in args.placements:
            if transport == "inproc" and placement == "cross-cpu":
                continue  # one process: the placement is the client CPU alone
            means, medians, theirs = [], [], []
            for rep in range(1, args.reps + 1):
                mean, median = mwbench_rtt_us(driver, transport, placement, args.samples,
                                              args.warmup)
                means.append(mean)
                medians.append(median)
                theirs.append(perf_mean_rtt_us(tools, transport, placement, args.samples))
                print(f"{transport:6} {placement:9} rep {rep}: mwbench mean {mean:7.2f} us "
                      f"(median {median:7.2f})   libzmq perf mean {theirs[-1]:7.2f} us")
            ratio = statistics.median(m / t for m, t in zip(means, theirs, strict=True))
            rows.append((transport, placement, statistics.median(means),
                         statistics.median(medians), statistics.median(theirs), ratio))

    print(f"\nround trip, us (median of {args.reps} runs); {machine_state()}")
    print(f"{'transport':9} {'placement':9} {'mwbench mean':>12} {'median':>7} "
          f"{'perf mean':>9} {'ratio':>6}  within 20 %")
    for transport, placement, mean, median, theirs, ratio in rows:
        print(f"{transport:9} {placement:9} {mean:12.2f} {median:7.2f} {theirs:9.2f} "
              f"{ratio:6.2f}  {within_20_percent(ratio)}")
    release_machine(latency_fd)


if __name__ == "__main__":
    main()
