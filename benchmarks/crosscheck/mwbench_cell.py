"""One mwbench cell run by hand, as the orchestrator runs it, for the cross-checks.

A server, its endpoint file, a client with the contract arguments, the
client's median round trip from its result file; the placements both
scripts share, and the idle hold. Standard library only.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Placement: (server CPU, client CPU) as --cpu and as taskset's list; None: unpinned.
PLACEMENTS = {"same-cpu": (0, 0), "cross-cpu": (1, 0), "unpinned": (None, None)}


def default_build_dir():
    return Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))


def crosscheck_arguments(doc, samples, warmup, samples_help):
    """The options every cross-check takes (--placements, --reps, --samples, --warmup,
    --build-dir); a script adds its own before parse_args()."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--placements", nargs="+", choices=PLACEMENTS,
                   default=["same-cpu", "unpinned"])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--samples", type=int, default=samples, help=samples_help)
    p.add_argument("--warmup", type=int, default=warmup, help="mwbench's warm-up")
    p.add_argument("--build-dir", type=Path, default=default_build_dir())
    return p


def driver_and_tool(build_dir, name, tool, install_hint):
    """mwbench-driver-`name` of `build_dir`; exits saying what is missing when it or the
    program `tool` is."""
    driver = build_dir / f"drivers/{name}/mwbench-driver-{name}"
    if not driver.exists() or not shutil.which(tool):
        sys.exit(f"needs {driver} and {tool}{install_hint}")
    return driver


def hold_cpu_dma_latency():
    """Asks for 0 us wake-up latency (no deep C-states) while the file stays open."""
    try:
        fd = os.open("/dev/cpu_dma_latency", os.O_WRONLY)
        os.write(fd, struct.pack("i", 0))
        print("cpu_dma_latency: held at 0 us")
        return fd
    except OSError as e:
        print(f"cpu_dma_latency: not held ({e.strerror})")
        return None


def _exit_on_stop_signal(signo, _frame):
    # Python's default for SIGTERM ends the process at once, skipping every `finally`:
    # the servers and temporary directories of the cell in progress would stay behind.
    sys.exit(128 + signo)


def prepare_machine(detail=""):
    """What every cross-check does before its first cell: stop cleanly on SIGTERM and
    SIGHUP (the cell in progress stopped and removed), hold the idle state (the descriptor
    to keep open) and print how busy the machine is, with `detail`."""
    for signo in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signo, _exit_on_stop_signal)
    latency_fd = hold_cpu_dma_latency()
    print(machine_state() + (f"; {detail}" if detail else ""))
    return latency_fd


def within_20_percent(ratio):
    """The verdict column of every cross-check's table."""
    return "yes" if abs(ratio - 1) <= 0.2 else "NO"


def release_machine(latency_fd):
    """Lets the idle state go again (the descriptor prepare_machine() returned)."""
    if latency_fd is not None:
        os.close(latency_fd)


def taskset(cpu):
    """The taskset prefix that pins a whole process (all its threads) to `cpu`."""
    return [] if cpu is None else ["taskset", "-c", str(cpu)]


def cpu_args(cpu):
    return [] if cpu is None else ["--cpu", str(cpu)]


def read_samples(path):
    lines = Path(path).read_text().split("\n")
    header = json.loads(lines[1])
    count = header["sample_count"]
    # The named series (an open loop's service_time, send_lag) follow the samples.
    after = "series " if header.get("named_series") else "end"
    assert lines[2 + count].startswith(after) and lines[-2:] == ["end", ""], f"{path}: truncated"
    return header, [int(s) for s in lines[2:2 + count]]


def run_cell(driver, cell, placement, samples, warmup, server_options=(), client_options=()):
    """Runs server and client of one cell; returns (median round trip in ns, client header)."""
    header, values = run_cell_samples(driver, cell, placement, samples, warmup, server_options,
                                      client_options)
    return statistics.median(values), header


def run_cell_samples(driver, cell, placement, samples, warmup, server_options=(),
                     client_options=()):
    """Runs server and client of one cell; returns (client header, round trips in ns)."""
    server_cpu, client_cpu = PLACEMENTS[placement]
    with tempfile.TemporaryDirectory(prefix="mwbench-crosscheck-") as tmp:
        endpoint = Path(tmp) / "endpoint"
        output = Path(tmp) / "client.result"
        server = subprocess.Popen(
            [str(driver), "--role", "server", *cell, *cpu_args(server_cpu),
             "--endpoint-file", str(endpoint), *server_options])
        try:
            deadline = time.monotonic() + 10
            while not endpoint.exists():
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{driver.name} server did not start")
                time.sleep(0.01)
            subprocess.run(
                [str(driver), "--role", "client", *cell, *cpu_args(client_cpu),
                 "--endpoint-file", str(endpoint), "--samples", str(samples),
                 "--warmup", str(warmup), "--batch", "1", "--output", str(output),
                 *client_options],
                check=True)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
        return read_samples(output)


def run_collocated_samples(driver, cell, placement, samples, warmup):
    """Runs one collocated cell (client CPU of the placement); returns (header, ns)."""
    _, cpu = PLACEMENTS[placement]
    with tempfile.TemporaryDirectory(prefix="mwbench-crosscheck-") as tmp:
        output = Path(tmp) / "collocated.result"
        subprocess.run(
            [str(driver), "--role", "collocated", *cell, *cpu_args(cpu), "--samples",
             str(samples), "--warmup", str(warmup), "--batch", "1", "--output", str(output)],
            check=True)
        return read_samples(output)


def stop(proc):
    """SIGTERM, then SIGKILL after 5 s; reaps it either way."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def machine_state():
    """One line on how busy the machine was: load averages and CPU count."""
    load = Path("/proc/loadavg").read_text().split()[:3]
    return f"load average {' '.join(load)} on {os.cpu_count()} CPUs"
