"""The container-managed pub/sub study's case (e): subscribers each on another host,
federated by UDP unicast (one datagram per host and event) against UDP multicast
(one datagram per event for every host), with direct IIOP delivery beside them.

Hosts are network namespaces on this machine (testsupport/namespaces.py: 198.18.0.0/24 on
one bridge, made and removed here; needs root), until mwbench drives several
machines. Host 1 runs the publisher, hosts 2 .. N + 1 one subscriber process each,
with one subscriber component. Every configuration is repeated as new processes;
each figure is the median over launches of each launch's median, and events
per second are N x samples / measured wall time. The raw fan-out (rawtcp, the
publisher writing N copies on loopback, N subscribers in one process) of the same
run is printed beside it. Placement: unpinned (the hosts share this machine's CPUs).

    sudo .venv/bin/python benchmarks/events_federation.py [--hosts 1 2 3] [--launches 3]
"""

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mwbench import paths
from mwbench.resultfile import read_result_file
from testsupport import namespaces

BUILD = paths.repo_root() / "build" / "drivers"
CCMEVENTS = BUILD / "ccmevents" / "mwbench-driver-ccmevents"
RAWTCP = BUILD / "rawtcp" / "mwbench-driver-rawtcp"
CONFIGURATIONS = (("direct", "iiop"), ("channel", "udp"), ("channel", "multicast"))
START_S = 30  # how long a subscriber process may take to publish its endpoint


def cell(operation_args, samples, warmup):
    return ["--operation", "fanout", *operation_args, "--samples", str(samples),
            "--warmup", str(warmup), "--timeout", "10"]


def wait_for(path, process):
    deadline = time.monotonic() + START_S
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{process.args[0]}: no endpoint ({process.returncode})")
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass


def figures(result_path, subscribers):
    result = read_result_file(result_path)
    wall_s = result.header["measured_wall_ns"] / 1e9
    return (float(statistics.median(result.per_call_ns())) / 1e3,
            subscribers * len(result.samples_ns) * result.batch_size / wall_s)


def federated(folder, count, delivery, transport, payload, samples, warmup):
    """One launch: (median µs, events per second) with `count` subscriber hosts."""
    with namespaces.hosts(count + 1) as hosts:
        publisher, others = hosts[0], hosts[1:]
        common = ["--transport", transport, "--payload-bytes", str(payload),
                  "--option", f"delivery={delivery}", "--option", "layer=component"]
        servers, endpoints = [], []
        for number, host in enumerate(others):
            endpoint = folder / f"endpoint-{number}"
            servers.append(host.start(
                [CCMEVENTS, "--role", "server", *cell(common, samples, warmup),
                 "--subscribers", "1", "--first-subscriber", str(number),
                 "--endpoint-file", endpoint, "--output", folder / f"server-{number}.result",
                 "--bind", host.address], stderr=subprocess.DEVNULL))
            wait_for(endpoint, servers[-1])
            endpoints += ["--endpoint-file", endpoint]
        output = folder / "client.result"
        publisher.run([CCMEVENTS, "--role", "client", *cell(common, samples, warmup),
                       "--subscribers", str(count), *endpoints, "--output", output,
                       "--bind", publisher.address], check=True)
        return figures(output, count)


def raw_baseline(folder, count, payload, samples, warmup):
    endpoint = folder / "raw-endpoint"
    args = ["--transport", "tcp", "--payload-bytes", str(payload)]
    server = subprocess.Popen([RAWTCP, "--role", "server", *cell(args, samples, warmup),
                               "--subscribers", str(count), "--endpoint-file", endpoint,
                               "--output", folder / "raw-server.result"])
    try:
        wait_for(endpoint, server)
        output = folder / "raw.result"
        subprocess.run([RAWTCP, "--role", "client", *cell(args, samples, warmup),
                        "--subscribers", str(count), "--endpoint-file", endpoint,
                        "--output", output], check=True)
        return figures(output, count)
    finally:
        server.terminate()
        server.wait(timeout=START_S)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, nargs="+", default=[1, 2, 3],
                        help="subscriber hosts (each its own namespace)")
    parser.add_argument("--payload-bytes", type=int, default=1024)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--launches", type=int, default=3)
    args = parser.parse_args()
    if (why := namespaces.unavailable()) is not None:
        raise SystemExit(why)
    print("| subscriber hosts | configuration | median µs | events/s |")
    print("| ---: | --- | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="mwbench-federation-") as scratch:
        for count in args.hosts:
            runs = {}
            for launch in range(args.launches):
                for delivery, transport in CONFIGURATIONS:
                    folder = Path(scratch) / f"{count}-{delivery}-{transport}-{launch}"
                    folder.mkdir()
                    runs.setdefault(f"{delivery} {transport}", []).append(federated(
                        folder, count, delivery, transport, args.payload_bytes, args.samples,
                        args.warmup))
                folder = Path(scratch) / f"{count}-raw-{launch}"
                folder.mkdir()
                runs.setdefault("raw fan-out (rawtcp, loopback)", []).append(raw_baseline(
                    folder, count, args.payload_bytes, args.samples, args.warmup))
            for name, values in runs.items():
                latency = statistics.median(v[0] for v in values)
                rate = statistics.median(v[1] for v in values)
                print(f"| {count} | {name} | {latency:,.1f} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
