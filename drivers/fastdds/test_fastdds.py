"""End-to-end tests of mwbench-driver-fastdds: real server and client processes.

Needs a build: the driver is looked up in $MWBENCH_BUILD_DIR (default: the
repository's build/). Only the standard library and pytest. Every test checks
that it leaves no Fast DDS file in /dev/shm behind.
"""

import json
import mmap
import os
import subprocess
import time
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    assert_every_event_delivered,
    cell,
    read_result,
    run_fanout,
    socket_inodes,
)

FASTDDS = Driver("fastdds")
DRIVER = FASTDDS.program
pytestmark = FASTDDS.built_or_skipped()

WAITS = ["waitset", "listener", "poll"]
TRANSPORTS = ["udp", "shm"]
SHM = Path("/dev/shm")


def shm_files():
    return {p.name for p in SHM.iterdir() if "fastrtps_" in p.name}


@pytest.fixture(autouse=True)
def no_shm_leftovers():
    before = shm_files()
    yield
    left = shm_files() - before
    assert not left, f"Fast DDS files left in /dev/shm: {sorted(left)}"


def run_client(tmp_path, args, samples=200):
    return FASTDDS.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"), *args,
                       samples=samples)


def run_collocated(tmp_path, args, samples=200):
    return FASTDDS.run("collocated", tmp_path, *args, samples=samples)


def test_describe():
    out = subprocess.run([DRIVER, "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["contract"] == 1 and d["driver"] == "fastdds"
    assert d["middleware_version"] == "2.9.1"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["udp", "shm"], "collocated": ["inproc"]}
    assert set(d["options"]) == {"wait", "verify"}
    assert d["max_threads"] == 1 and d["max_servants"] == 1
    assert d["max_subscribers"] == 64


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("wait", WAITS)
def test_round_trip(tmp_path, transport, wait):
    args = cell("roundtrip", transport, 0, "--option", f"wait={wait}")
    server = DriverServer(DRIVER, tmp_path, args)
    endpoint = server.endpoint.read_text().strip()
    fields = dict(f.split("=") for f in endpoint.removeprefix("dds:").split(";"))
    assert endpoint.startswith("dds:") and 1 <= int(fields["domain"]) <= 100
    assert fields["ping"] == f"mwbench_ping_{server.proc.pid}"
    assert fields["pong"] == f"mwbench_pong_{server.proc.pid}"

    client, output = run_client(tmp_path, args)
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["options"]["wait"] == wait and header["transport"] == transport
    config = header["middleware_config"]
    assert config["wait"] == wait and config["domain_id"] == int(fields["domain"])
    assert config["participant_profile"] == f"mwbench_{transport}"
    assert config["topics"] == {"ping": fields["ping"], "pong": fields["pong"]}
    assert config["qos"] == {"reliability": "reliable", "history": "keep_last 1",
                             "durability": "volatile", "publish_mode": "synchronous",
                             "data_sharing": "off"}
    assert config["profiles_file"].endswith("drivers/fastdds/fastdds-loopback.xml")

    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    assert server_header["middleware_config"]["domain_id"] == int(fields["domain"])


def test_udp_uses_no_shared_memory(tmp_path):
    # Builtin transports off: a udp cell opens no shared-memory segment at all.
    before = shm_files()
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "udp", 0))
    assert shm_files() - before == set()
    assert server.stop()[0] == 0


def test_udp_sockets_are_bound_to_loopback_only(tmp_path):
    # The whitelist and the locators of the mwbench_udp profile: every UDP socket
    # of the server is bound to 127.0.0.1 (no wildcard, no multicast socket).
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "udp", 0))
    inodes = socket_inodes(server.proc.pid)
    local = []
    for table in ("udp", "udp6"):
        for line in Path(f"/proc/{server.proc.pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                local.append((table, fields[1].split(":")[0]))
    assert local and all(address == "0100007F" for _, address in local), local
    assert server.stop()[0] == 0


def test_shm_uses_shared_memory(tmp_path):
    before = shm_files()
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "shm", 0))
    assert any(f.startswith("fastrtps_") for f in shm_files() - before)
    assert server.stop()[0] == 0


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20])
def test_octets_payload_arrives_intact(tmp_path, transport, payload):
    # verify=1: the server checks every byte, the pong says whether all were right.
    args = cell("octets", transport, payload, "--option", "verify=1")
    server = DriverServer(DRIVER, tmp_path, args)
    client, output = run_client(tmp_path, args, samples=30)
    assert client.returncode == 0, client.stderr
    header, _ = read_result(output)
    assert header["payload_bytes"] == payload and header["sample_count"] == 30
    status, err = server.stop()
    assert status == 0, err


def test_a_wrong_payload_fails_both_ends(tmp_path):
    server = DriverServer(DRIVER, tmp_path, cell("octets", "udp", 16, "--option", "verify=1"))
    client, _ = run_client(tmp_path, cell("octets", "udp", 8, "--option", "verify=1"))
    assert client.returncode == 1
    assert "octets: the server found a payload mismatch (verify=1)" in client.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "payload mismatch at byte 8 of 8 (expected 16 bytes" in server.proc.stderr.read()


@pytest.mark.parametrize("wait", WAITS)
@pytest.mark.parametrize("operation,payload", [("roundtrip", 0), ("octets", 4096)])
def test_collocated(tmp_path, wait, operation, payload):
    proc, output = run_collocated(
        tmp_path, cell(operation, "inproc", payload, "--option", f"wait={wait}",
                       "--option", "verify=1", "--batch", "auto"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and len(samples) == 200
    assert header["batch_size"] >= 1
    pid = header["process"]["pid"]
    config = header["middleware_config"]
    assert config["topics"]["ping"] == f"mwbench_ping_{pid}"
    assert config["intraprocess_delivery"] == "FULL" and config["wait"] == wait


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_client_fails_when_no_reader_matches(tmp_path, transport):
    # A server that never started DDS: its endpoint names topics nobody serves.
    (tmp_path / "endpoint").write_text(
        f"dds:domain=7;ping=nobody_ping_{os.getpid()};pong=nobody_pong_{os.getpid()}\n")
    proc, output = run_client(tmp_path, cell("roundtrip", transport, 0, "--timeout", "1"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("mwbench-driver-fastdds: error: no matching reader on topic "
                                  f"nobody_ping_{os.getpid()} after 1 s (domain 7;")
    assert not output.exists()


def test_transports_do_not_cross(tmp_path):
    # A shm client never reaches a udp server: builtin transports are off on both.
    args = cell("roundtrip", "udp", 0)
    server = DriverServer(DRIVER, tmp_path, args)
    proc, _ = run_client(tmp_path, cell("roundtrip", "shm", 0, "--timeout", "1"))
    assert proc.returncode == 1 and "no matching reader on topic" in proc.stderr
    assert server.stop()[0] == 0


@pytest.mark.parametrize("args,message", [
    (cell("roundtrip", "udp", 0, "--option", "wait=spin"),
     "--option wait=spin: allowed values: waitset, listener, poll"),
    (cell("roundtrip", "udp", 0, "--option", "verify=2"), "verify"),
    (cell("roundtrip", "udp", 0, "--option", "colour=1"), "--option colour"),
    (cell("roundtrip", "udp", 0, "--threads", "2"), "--threads 2"),
    (cell("roundtrip", "udp", 0, "--servants", "2"), "--servants 2"),
    (cell("roundtrip", "tcp", 0), "tcp"),
    (cell("roundtrip", "inproc", 0), "inproc"),
    (cell("roundtrip", "udp", 8), "--payload-bytes 8"),
    (cell("ping", "udp", 0), "ping"),
])
def test_bad_arguments_are_exit_2(tmp_path, args, message):
    proc, _ = run_client(tmp_path, args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("mwbench-driver-fastdds: error:")
    assert message in proc.stderr


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("wait", WAITS)
def test_server_stops_on_sigterm(tmp_path, transport, wait):
    server = DriverServer(DRIVER, tmp_path,
                          cell("roundtrip", transport, 0, "--option", f"wait={wait}"))
    status, err = server.stop()
    assert status == 0, err
    assert read_result(server.output)[0]["role"] == "server"


def test_stale_segments_of_a_killed_run_are_removed_at_the_next_start(tmp_path):
    # A shm server killed outright leaves its segment, its ports and their
    # locks; the next driver process to start finds them unlocked and removes them.
    before = shm_files()
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "shm", 0))
    server.proc.kill()
    server.proc.wait(timeout=HANG_S)
    server.proc.stderr.close()
    leftovers = shm_files() - before
    segments = [f for f in leftovers if f.endswith("_el") and not f.startswith("fastrtps_port")]
    assert segments, f"the killed server left no segment lock: {sorted(leftovers)}"

    proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0), samples=10)
    assert proc.returncode == 0, proc.stderr
    removed = read_result(output)[0]["middleware_config"]["stale_shm"]["removed_at_start"]
    assert leftovers <= set(removed), sorted(leftovers - set(removed))
    assert not (shm_files() & leftovers)


def test_a_live_processs_segments_are_kept(tmp_path):
    # The segments of a running shm server are locked: a process that starts
    # beside it removes none of them, and the server still answers.
    args = cell("roundtrip", "shm", 0)
    server = DriverServer(DRIVER, tmp_path, args)
    beside = tmp_path / "beside"
    beside.mkdir()
    proc, output = run_collocated(beside, cell("roundtrip", "inproc", 0), samples=10)
    assert proc.returncode == 0, proc.stderr
    assert read_result(output)[0]["middleware_config"]["stale_shm"]["removed_at_start"] == []
    client, _ = run_client(tmp_path, args, samples=50)
    assert client.returncode == 0, client.stderr
    assert server.stop()[0] == 0



def orphan_segment(name, age_s, size=4096):
    """A segment file in /dev/shm without a lock file, last modified `age_s` ago."""
    path = SHM / name
    with open(path, "wb") as f:
        f.truncate(size)
    os.utime(path, (time.time() - age_s, time.time() - age_s))
    return path


def test_segments_without_a_lock_file_are_removed_once_old_and_unmapped(tmp_path):
    # A crash between Fast DDS's removal of a port's lock file and of its segment
    # leaves the segment alone. Removed: one old and mapped by nobody (with its mutex).
    # Kept: one just made (its creator may not have made its lock file yet), and
    # one that a live process (this one) maps.
    base = 50000 + os.getpid() % 10000  # above every port Fast DDS uses (< 32768)
    old = orphan_segment(f"fastrtps_port{base}", 60)
    mutex = orphan_segment(f"sem.fastrtps_port{base}_mutex", 60)
    young = orphan_segment(f"fastrtps_port{base + 1}", 0)
    mapped = orphan_segment(f"fastrtps_port{base + 2}", 60)
    try:
        with open(mapped, "r+b") as f, mmap.mmap(f.fileno(), 4096):
            proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0), samples=10)
        assert proc.returncode == 0, proc.stderr
        stale = read_result(output)[0]["middleware_config"]["stale_shm"]
        assert {old.name, mutex.name} <= set(stale["removed_at_start"])
        assert not {young.name, mapped.name} & set(stale["removed_at_start"])
        assert stale["held_by_live_processes"] >= 2
        assert not old.exists() and not mutex.exists()
        assert young.exists() and mapped.exists()
    finally:
        for path in (old, mutex, young, mapped):
            path.unlink(missing_ok=True)


def test_ports_of_a_killed_run_without_lock_files_are_removed(tmp_path):
    # As test_stale_segments_of_a_killed_run_...: a shm server killed outright, and
    # then its ports' lock files gone too, as a crash in Fast DDS's own cleanup
    # leaves them. The next start removes the ports by the segments' age.
    before = shm_files()
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "shm", 0))
    server.proc.kill()
    server.proc.wait(timeout=HANG_S)
    server.proc.stderr.close()
    leftovers = shm_files() - before
    ports = {f for f in leftovers
             if f.startswith("fastrtps_port") and not f.endswith(("_el", "_sl"))}
    assert ports, f"the killed server left no port: {sorted(leftovers)}"
    for name in leftovers:
        if name.startswith("fastrtps_port") and name.endswith(("_el", "_sl")):
            (SHM / name).unlink()
    for name in ports:
        os.utime(SHM / name, (time.time() - 60, time.time() - 60))

    proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0), samples=10)
    assert proc.returncode == 0, proc.stderr
    removed = read_result(output)[0]["middleware_config"]["stale_shm"]["removed_at_start"]
    assert ports <= set(removed), sorted(ports - set(removed))
    assert not (shm_files() & leftovers)


# ---- fanout (docs/driver-contract.md section 5) ------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("subscribers,processes", [(1, 1), (4, 1), (4, 4)])
def test_fanout(tmp_path, transport, subscribers, processes):
    # run_fanout checks that every subscriber received every event, no more.
    header, samples, servers = run_fanout(FASTDDS, tmp_path, cell("fanout", transport, 0),
                                          subscribers, processes)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == processes
    config = header["middleware_config"]
    assert config["participant_profile"] == ("mwbench_udp_fanout" if transport == "udp"
                                             else "mwbench_shm")
    partitions = [s["middleware_config"]["partitions"][0] for s in servers]
    assert config["partitions"] == partitions
    assert partitions == [f"mwbench_fanout_{s['process']['pid']}" for s in servers]
    assert {config["domain_id"]} == {s["middleware_config"]["domain_id"] for s in servers}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_fanout_payload_arrives_intact(tmp_path, transport):
    # verify=1: every subscriber checks every byte, its reply says whether all were right.
    header, _, _ = run_fanout(FASTDDS, tmp_path,
                              cell("fanout", transport, 1000, "--option", "verify=1"), 4, 2)
    assert header["payload_bytes"] == 1000


def test_fanout_with_listeners(tmp_path):
    run_fanout(FASTDDS, tmp_path, cell("fanout", "shm", 0, "--option", "wait=listener"), 4, 2)


@pytest.mark.parametrize("wait", ["waitset", "listener"])
def test_fanout_collocated(tmp_path, wait):
    proc, output = run_collocated(
        tmp_path, cell("fanout", "inproc", 1000, "--option", f"wait={wait}",
                       "--option", "verify=1", "--subscribers", "4"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == 0
    assert header["middleware_config"]["transport"].startswith("intra-process delivery")
    assert_every_event_delivered(header)


@pytest.mark.parametrize("role", ["client", "collocated", "server"])
def test_fanout_refuses_more_spinners_than_cpus(tmp_path, role):
    # wait=poll spins a thread per subscriber and the publisher's: N + 1 of them.
    subscribers = os.cpu_count()
    args = cell("fanout", "inproc" if role == "collocated" else "shm", 0,
                "--option", "wait=poll", "--subscribers", str(subscribers))
    extra = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run([DRIVER, "--role", role, *extra, *args],
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert (f"--option wait=poll with --subscribers {subscribers}: fanout would spin "
            f"{subscribers + 1} threads") in proc.stderr
    assert not (tmp_path / "endpoint").exists()


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_fanout_fails_within_the_timeout_when_a_subscriber_is_missing(tmp_path, transport):
    # Subscriber process 0 runs; subscriber process 1's endpoint names a partition
    # nobody serves (its process never started DDS).
    args = cell("fanout", transport, 0)
    server = FASTDDS.server(tmp_path, *args, "--subscribers", "1")
    missing = tmp_path / "missing-endpoint"
    missing.write_text("dds:domain=100;partition=mwbench_fanout_nobody_"
                       f"{os.getpid()};event=mwbench_fanout_event;reply=mwbench_fanout_reply\n")
    proc, output = FASTDDS.run("client", tmp_path, "--endpoint-file", str(server.endpoint),
                               "--endpoint-file", str(missing), *args, "--subscribers", "2",
                               "--timeout", "2")
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        "mwbench-driver-fastdds: error: 1 of 2 subscribers (1) did not answer the fan-out "
        "handshake after 2 s: the event writer matched 1 of 2 readers"), proc.stderr
    assert not output.exists()
    assert server.stop()[0] == 0
