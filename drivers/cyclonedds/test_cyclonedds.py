"""End-to-end tests of mwbench-driver-cyclonedds: real server and client processes.

Needs a build: the driver is looked up in $MWBENCH_BUILD_DIR (default: the
repository's build/). Only the standard library and pytest.
"""

import json
import os
import subprocess

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    assert_every_event_delivered,
    cell,
    read_result,
    run_fanout,
)

CYCLONEDDS = Driver("cyclonedds")
DRIVER = CYCLONEDDS.program
pytestmark = CYCLONEDDS.built_or_skipped()

WAITS = ["waitset", "listener", "poll"]


def run_client(tmp_path, args, samples=200, timeout=60):
    output = tmp_path / "client.result"
    proc = subprocess.run(
        [DRIVER, "--role", "client", "--endpoint-file", tmp_path / "endpoint",
         "--output", output, "--samples", str(samples), "--warmup", "20", *args],
        capture_output=True, text=True, timeout=timeout)
    return proc, output


def run_collocated(tmp_path, args, samples=200):
    output = tmp_path / "collocated.result"
    proc = subprocess.run(
        [DRIVER, "--role", "collocated", "--output", output, "--samples", str(samples),
         "--warmup", "20", *args],
        capture_output=True, text=True, timeout=60)
    return proc, output


def test_describe():
    out = subprocess.run([DRIVER, "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["contract"] == 1 and d["driver"] == "cyclonedds"
    assert d["middleware_version"] == "0.10.2"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["udp"], "collocated": ["inproc"]}
    assert set(d["options"]) == {"wait", "verify"}
    assert d["max_threads"] == 1 and d["max_servants"] == 1
    assert d["max_subscribers"] == 64


@pytest.mark.parametrize("wait", WAITS)
def test_round_trip(tmp_path, wait):
    args = cell("roundtrip", "udp", 0, "--option", f"wait={wait}")
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
    assert header["options"]["wait"] == wait
    config = header["middleware_config"]
    assert config["wait"] == wait and config["domain_id"] == int(fields["domain"])
    assert config["topics"] == {"ping": fields["ping"], "pong": fields["pong"]}
    assert config["qos"] == {"reliability": "reliable", "history": "keep_last 1",
                             "durability": "volatile"}
    assert config["CYCLONEDDS_URI"].endswith("drivers/cyclonedds/cyclonedds-loopback.xml")

    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    assert server_header["middleware_config"]["domain_id"] == int(fields["domain"])


@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20])
def test_octets_payload_arrives_intact(tmp_path, payload):
    # verify=1: the server checks every byte, the pong says whether all were right.
    args = cell("octets", "udp", payload, "--option", "verify=1")
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
    assert header["middleware_config"]["topics"]["ping"] == f"mwbench_ping_{pid}"


def test_client_fails_when_no_reader_matches(tmp_path):
    # A server that never started DDS: its endpoint names topics nobody serves.
    (tmp_path / "endpoint").write_text(
        f"dds:domain=7;ping=nobody_ping_{os.getpid()};pong=nobody_pong_{os.getpid()}\n")
    proc, output = run_client(tmp_path, cell("roundtrip", "udp", 0, "--timeout", "1"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("mwbench-driver-cyclonedds: error: no matching reader on topic "
                                  f"nobody_ping_{os.getpid()} after 1 s (domain 7;")
    assert not output.exists()


@pytest.mark.parametrize("args,message", [
    (cell("roundtrip", "udp", 0, "--option", "wait=spin"),
     "--option wait=spin: allowed values: waitset, listener, poll"),
    (cell("roundtrip", "udp", 0, "--option", "verify=2"), "verify"),
    (cell("roundtrip", "udp", 0, "--option", "colour=1"), "--option colour"),
    (cell("roundtrip", "udp", 0, "--threads", "2"), "--threads 2"),
    (cell("roundtrip", "udp", 0, "--servants", "2"), "--servants 2"),
    (cell("roundtrip", "tcp", 0), "tcp"),
    (cell("roundtrip", "udp", 8), "--payload-bytes 8"),
    (cell("ping", "udp", 0), "ping"),
])
def test_bad_arguments_are_exit_2(tmp_path, args, message):
    proc, _ = run_client(tmp_path, args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("mwbench-driver-cyclonedds: error:")
    assert message in proc.stderr


@pytest.mark.parametrize("wait", WAITS)
def test_server_stops_on_sigterm(tmp_path, wait):
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "udp", 0, "--option", f"wait={wait}"))
    status, err = server.stop()
    assert status == 0, err
    assert read_result(server.output)[0]["role"] == "server"


# ---- fanout (docs/driver-contract.md section 5) ------------------------------------------


@pytest.mark.parametrize("subscribers,processes", [(1, 1), (4, 1), (4, 4)])
def test_fanout(tmp_path, subscribers, processes):
    # run_fanout checks that every subscriber received every event, no more.
    header, samples, servers = run_fanout(CYCLONEDDS, tmp_path, cell("fanout", "udp", 0),
                                          subscribers, processes)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == processes
    config = header["middleware_config"]
    partitions = [s["middleware_config"]["partitions"][0] for s in servers]
    assert config["partitions"] == partitions
    assert partitions == [f"mwbench_fanout_{s['process']['pid']}" for s in servers]
    assert {config["domain_id"]} == {s["middleware_config"]["domain_id"] for s in servers}


def test_fanout_payload_arrives_intact(tmp_path):
    # verify=1: every subscriber checks every byte, its reply says whether all were right.
    header, _, _ = run_fanout(CYCLONEDDS, tmp_path,
                              cell("fanout", "udp", 1000, "--option", "verify=1"), 4, 2)
    assert header["payload_bytes"] == 1000


def test_fanout_with_listeners(tmp_path):
    run_fanout(CYCLONEDDS, tmp_path, cell("fanout", "udp", 0, "--option", "wait=listener"), 4, 2)


@pytest.mark.parametrize("wait", ["waitset", "listener"])
def test_fanout_collocated(tmp_path, wait):
    proc, output = run_collocated(
        tmp_path, cell("fanout", "inproc", 1000, "--option", f"wait={wait}",
                       "--option", "verify=1", "--subscribers", "4"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == 0
    assert_every_event_delivered(header)


@pytest.mark.parametrize("role", ["client", "collocated", "server"])
def test_fanout_refuses_more_spinners_than_cpus(tmp_path, role):
    # wait=poll spins a thread per subscriber and the publisher's: N + 1 of them.
    subscribers = os.cpu_count()
    args = cell("fanout", "inproc" if role == "collocated" else "udp", 0,
                "--option", "wait=poll", "--subscribers", str(subscribers))
    extra = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run([DRIVER, "--role", role, *extra, *args],
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert (f"--option wait=poll with --subscribers {subscribers}: fanout would spin "
            f"{subscribers + 1} threads") in proc.stderr
    assert not (tmp_path / "endpoint").exists()


def test_fanout_fails_within_the_timeout_when_a_subscriber_is_missing(tmp_path):
    # Subscriber process 0 runs; subscriber process 1's endpoint names a partition
    # nobody serves (its process never started DDS).
    args = cell("fanout", "udp", 0)
    server = CYCLONEDDS.server(tmp_path, *args, "--subscribers", "1")
    missing = tmp_path / "missing-endpoint"
    missing.write_text("dds:domain=100;partition=mwbench_fanout_nobody_"
                       f"{os.getpid()};event=mwbench_fanout_event;reply=mwbench_fanout_reply\n")
    proc, output = CYCLONEDDS.run("client", tmp_path, "--endpoint-file", str(server.endpoint),
                                  "--endpoint-file", str(missing), *args, "--subscribers", "2",
                                  "--timeout", "2")
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        "mwbench-driver-cyclonedds: error: 1 of 2 subscribers (1) did not answer the fan-out "
        "handshake after 2 s: the event writer matched 1 of 2 readers"), proc.stderr
    assert not output.exists()
    assert server.stop()[0] == 0
