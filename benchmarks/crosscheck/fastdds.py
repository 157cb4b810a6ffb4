#!/usr/bin/env python3
"""Cross-check the fastdds driver's round trip against eProsima's own latency test.

Debian ships no binary of Fast DDS's `test/performance/latency` programs, so
this script builds `LatencyTest` from the Debian source package of the
installed Fast DDS (its `.orig.tar.xz`, checked against the SHA-256 in the
package's `.dsc`), against the installed libraries, and caches it under the
build directory. Then, for each QoS configuration and placement, REPS times,
alternately: mwbench's fastdds `roundtrip` cell with each wait strategy and a
new `LatencyTest subscriber` + `LatencyTest publisher` pair with the same
transport and QoS. `LatencyTest` prints half round trips (minus its clock
overhead); the script compares twice its median (plus the overhead) with
mwbench's median round trip.

    python3 benchmarks/crosscheck/fastdds.py --placements same-cpu unpinned
"""

import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
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
    taskset,
)

# What LatencyTest needs of the source tree: its own files, the option
# helpers of test/performance and the header-only option parser.
SOURCES = re.compile(r"/(test/performance/latency/[^/]+\.[ch]pp|test/performance/optionarg\.hpp"
                     r"|thirdparty/optionparser/.+)$")
PROGRAM_SOURCES = ("LatencyTestPublisher.cpp", "LatencyTestSubscriber.cpp",
                   "LatencyTestTypes.cpp", "main_LatencyTest.cpp")
# LatencyTest's payload: its sample is a sequence number, a bounce time and
# this many bytes (24 bytes on the wire); mwbench's roundtrip sample is two
# 8-byte numbers, a status byte and an empty sequence (24 bytes too).
PAYLOAD_BYTES = 16
# Fast DDS's well-known ports (7400 + 250 x domain + ...) stay under Linux's
# ephemeral range up to domain 100; the driver picks 1-100 per cell, one cell
# at a time, so LatencyTest's pair, which never runs beside it, may take 100.
DOMAIN = 100
STATS_ROW = re.compile(r"^\s*(?P<bytes>\d+),\s*(?P<samples>\d+),(?P<rest>[\d.,\s]+)$", re.M)
OVERHEAD = re.compile(r"^Overhead (?P<us>[\d.e+-]+) ns$", re.M)  # printed as ns, counted in us


class Config:
    """One QoS configuration, as LatencyTest's XML and flags and as driver options."""

    def __init__(self, name, transport, reliable, data_sharing):
        self.name = name
        self.transport = transport
        self.reliable = reliable
        self.data_sharing = data_sharing

    def driver_options(self):
        return ["--option", f"reliability={'reliable' if self.reliable else 'best_effort'}",
                "--option", f"data_sharing={'on' if self.data_sharing else 'off'}"]

    def latency_test_flags(self):
        # --reliability only names the results once an XML file gives the QoS.
        return ["--reliability", "reliable" if self.reliable else "besteffort",
                f"--data_sharing={'on' if self.data_sharing else 'off'}"]


CONFIGS = {c.name: c for c in (
    Config("udp-reliable", "udp", True, False),
    Config("udp-best-effort", "udp", False, False),
    Config("shm-reliable", "shm", True, False),
    Config("shm-best-effort", "shm", False, False),
    Config("shm-best-effort-data-sharing", "shm", False, True),
)}


# A participant as the driver's profiles make it (drivers/fastdds/fastdds-loopback.xml):
# builtin transports off; udp: UDPv4 on 127.0.0.1 only, discovery by unicast to
# 127.0.0.1; shm: Fast DDS's shared-memory transport only.
PARTICIPANT = {
    "udp": """
      <rtps>
        <useBuiltinTransports>false</useBuiltinTransports>
        <userTransports><transport_id>crosscheck_transport</transport_id></userTransports>
        <builtin>
          <metatrafficUnicastLocatorList>
            <locator><udpv4><address>127.0.0.1</address></udpv4></locator>
          </metatrafficUnicastLocatorList>
          <initialPeersList>
            <locator><udpv4><address>127.0.0.1</address></udpv4></locator>
          </initialPeersList>
        </builtin>
        <defaultUnicastLocatorList>
          <locator><udpv4><address>127.0.0.1</address></udpv4></locator>
        </defaultUnicastLocatorList>
      </rtps>""",
    "shm": """
      <rtps>
        <useBuiltinTransports>false</useBuiltinTransports>
        <userTransports><transport_id>crosscheck_transport</transport_id></userTransports>
      </rtps>""",
}
TRANSPORT = {
    "udp": "<type>UDPv4</type><interfaceWhiteList><address>127.0.0.1</address>"
           "</interfaceWhiteList>",
    "shm": "<type>SHM</type>",
}


def latency_test_xml(config):
    """The profiles LatencyTest reads (pub_/sub_ participant, publisher and subscriber),
    those of eProsima's test/performance/latency/xml/interprocess_*.xml with the driver's
    transport: reliability and volatile durability; history KEEP_LAST 1 by default."""
    kind = "RELIABLE" if config.reliable else "BEST_EFFORT"
    qos = (f"<qos><reliability><kind>{kind}</kind></reliability>"
           "<durability><kind>VOLATILE</kind></durability></qos>")
    profiles = []
    for side in ("pub", "sub"):
        profiles.append(f'<participant profile_name="{side}_participant_profile">'
                        f"{PARTICIPANT[config.transport]}</participant>")
        profiles.append(f'<publisher profile_name="{side}_publisher_profile">{qos}</publisher>')
        profiles.append(f'<subscriber profile_name="{side}_subscriber_profile">{qos}</subscriber>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<dds xmlns="http://www.eprosima.com/XMLSchemas/fastRTPS_Profiles"><profiles>'
            "<transport_descriptors><transport_descriptor>"
            f"<transport_id>crosscheck_transport</transport_id>{TRANSPORT[config.transport]}"
            "</transport_descriptor></transport_descriptors>"
            + "".join(profiles) + "</profiles></dds>\n")


def build_latency_test(cache):
    """Builds LatencyTest once per Fast DDS version; returns the program."""
    _, version = installed_source("libfastrtps-dev")
    program = cache / f"fastdds-latency-{version}" / "LatencyTest"
    if program.exists():
        return program
    tarball, data = orig_tarball("libfastrtps-dev")
    program.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / tarball
        archive.write_bytes(data)
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and SOURCES.search(m.name)]
            tar.extractall(tmp, members=members, filter="data")
        latency = next(Path(tmp).glob("*/test/performance/latency"))
        root = latency.parents[2]
        subprocess.run(["g++", "-O2", "-std=c++11", "-pthread", "-DASIO_STANDALONE",
                        f"-I{root / 'thirdparty' / 'optionparser'}", "-o", str(program),
                        *(str(latency / name) for name in PROGRAM_SOURCES),
                        "-lfastrtps", "-lfastcdr", "-lfoonathan_memory", "-ldl"], check=True)
    print(f"built Fast DDS {version}'s LatencyTest from {tarball} in {program.parent}")
    return program


def latency_test_rtt_us(program, config, placement, samples):
    """Median round trip of one LatencyTest subscriber + publisher pair, in us."""
    server_cpu, client_cpu = PLACEMENTS[placement]
    with tempfile.TemporaryDirectory(prefix="mwbench-fastdds-latency-") as tmp:
        xml = Path(tmp) / "profiles.xml"
        xml.write_text(latency_test_xml(config))
        demands = Path(tmp) / "demands.csv"
        demands.write_text(f"{PAYLOAD_BYTES};\n")
        common = ["--xml", str(xml), "--file", str(demands), "--samples", str(samples),
                  "--domain", str(DOMAIN), *config.latency_test_flags()]
        # Only the XML given: no DEFAULT_FASTRTPS_PROFILES.xml of the working directory.
        env = {**os.environ, "SKIP_DEFAULT_XML_FILE": "1"}
        env.pop("FASTRTPS_DEFAULT_PROFILES_FILE", None)
        subscriber = subprocess.Popen([*taskset(server_cpu), str(program), "subscriber", *common],
                                      cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
        try:
            publisher = subprocess.run([*taskset(client_cpu), str(program), "publisher", *common],
                                       cwd=tmp, env=env, capture_output=True, text=True,
                                       timeout=300)
            subscriber.wait(timeout=30)
        finally:
            if subscriber.poll() is None:
                subscriber.kill()
                subscriber.wait()
    row = STATS_ROW.search(publisher.stdout)
    overhead = OVERHEAD.search(publisher.stdout)
    if publisher.returncode != 0 or row is None or overhead is None:
        sys.exit(f"LatencyTest publisher failed ({publisher.returncode}):\n"
                 f"{publisher.stdout}{publisher.stderr}")
    # bytes, samples, stdev, mean, min, 50%, 90%, 99%, 99.99%, max
    half_median = float(row["rest"].split(",")[3])
    return 2 * (half_median + float(overhead["us"]))


def mwbench_rtt_us(driver, config, wait, placement, samples, warmup):
    """Median round trip of one mwbench fastdds cell, in us."""
    cell = ["--operation", "roundtrip", "--transport", config.transport, "--payload-bytes", "0",
            "--option", f"wait={wait}", *config.driver_options()]
    _, values = run_cell_samples(driver, cell, placement, samples, warmup)
    return statistics.median(values) / 1000


def main():
    p = crosscheck_arguments(__doc__, 20000, 2000, "round trips per run, both sides")
    p.add_argument("--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS))
    p.add_argument("--waits", nargs="+", choices=["waitset", "listener", "chain", "poll"],
                   default=["listener", "chain"])
    args = p.parse_args()

    driver = driver_and_tool(args.build_dir, "fastdds", "g++", "")
    program = build_latency_test(args.build_dir / "crosscheck")
    latency_fd = prepare_machine()

    rows = []
    for name in args.configs:
        config = CONFIGS[name]
        for placement in args.placements:
            ours = {wait: [] for wait in args.waits}
            theirs = []
            for rep in range(1, args.reps + 1):
                for wait in args.waits:
                    ours[wait].append(mwbench_rtt_us(driver, config, wait, placement,
                                                     args.samples, args.warmup))
                theirs.append(latency_test_rtt_us(program, config, placement, args.samples))
                print(f"{name:28} {placement:9} rep {rep}: "
                      + "  ".join(f"mwbench {w} {v[-1]:6.1f}" for w, v in ours.items())
                      + f"  LatencyTest {theirs[-1]:6.1f} us")
            medians = {w: statistics.median(v) for w, v in ours.items()}
            rows.append((name, placement, medians, statistics.median(theirs)))

    print(f"\nmedian round trip, us (median of {args.reps} runs); {machine_state()}")
    print(f"{'configuration':28} {'placement':9} "
          + " ".join(f"{w:>9}" for w in args.waits)
          + f" {'LatencyTest':>11} {'best/LT':>7}  within 20 %")
    for name, placement, medians, lt in rows:
        ratio = min(medians.values()) / lt
        verdict = "NO" if ratio > 1.2 else "yes, faster" if ratio < 0.8 else "yes"
        print(f"{name:28} {placement:9} " + " ".join(f"{m:9.1f}" for m in medians.values())
              + f" {lt:11.1f} {ratio:7.2f}  {verdict}")
    print("(LatencyTest's publisher waits as mwbench's listener does: its listener notifies "
          "the writing thread; chain writes the next ping from the listener itself)")
    release_machine(latency_fd)


if __name__ == "__main__":
    main()
