"""Integration tests of mwbench-driver-java: real JVMs on both ORBs, and the omniorb driver.

Run from the repository root after building:  python3 -m pytest drivers/java
What every driver must do is checked by ../test_contract.py; here what only this driver
does: its two ORBs, each against the other and against omniORB (the seeds of the IIOP
interop matrix), and what the JVM adds (warm-up rounds, pauses, footprint, no files).
"""

import os
import signal
import subprocess
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    cell,
    measuring,
    read_result,
    read_result_with_series,
    wait_for_file,
    wait_until_measuring,
)
from proc_view import socket_inodes

JAVA = Driver("java")
OMNIORB = Driver("omniorb")
ORBS = ["jacorb", "glassfish"]
pytestmark = JAVA.built_or_skipped()
needs_omniorb = OMNIORB.built_or_skipped()

# Each operation with a payload that exercises it (0 for those that have none).
OPERATIONS = [("roundtrip", 0), ("ping", 0), ("octets", 4096), ("octets_out", 4096),
              ("octets_inout", 4096), ("records", 4096)]
VERIFY = ["--option", "verify=1"]


def orb(name):
    return ["--option", f"orb={name}"]


def test_describe_offers_the_omniorb_drivers_operations():
    d = JAVA.describe()
    assert d["driver"] == "java"
    assert d["middleware_version"] == "JacORB 3.9, GlassFish CORBA ORB 4.2.5"
    assert d["operations"] == {
        "roundtrip": {"payload": False}, "ping": {"payload": False},
        "octets": {"payload": True}, "octets_out": {"payload": True},
        "octets_inout": {"payload": True}, "records": {"payload": True}}
    assert d["modes"] == {"remote": ["tcp"], "collocated": ["inproc"]}
    assert d["option_values"] == {
        "orb": ORBS, "glassfish_sockets": ["blocking", "nio"],
        "target": ["same", "random"], "verify": ["0", "1"],
        "scenario": ["obj-obj", "obj-comp", "comp-obj", "comp-comp"],
        "layer": ["object", "component"],
        "invocation": ["static", "dii", "ami_callback", "oneway"],
        "dispatch": ["static", "dsi"], "delivery": ["0", "1"]}


@pytest.mark.parametrize("collocated", [False, True], ids=["remote", "collocated"])
@pytest.mark.parametrize("orb_name", ORBS)
@pytest.mark.parametrize(("operation", "size"), OPERATIONS)
def test_every_operation_verified(tmp_path, orb_name, operation, size, collocated):
    transport = "inproc" if collocated else "tcp"
    header, samples = JAVA.run_cell(
        tmp_path, *cell(operation, transport, size, *VERIFY, *orb(orb_name)),
        collocated=collocated)
    assert len(samples) == 200
    assert header["middleware_config"]["orb"] == orb_name


@pytest.mark.parametrize("orb_name", ORBS)
def test_a_payload_mismatch_fails_loudly(tmp_path, orb_name):
    server = JAVA.server(tmp_path, *cell("octets_inout", "tcp", 4096, *VERIFY, *orb(orb_name)))
    client, _ = JAVA.client(tmp_path, server, *cell("octets_inout", "tcp", 4095, *VERIFY,
                                                    *orb(orb_name)))
    status, err = server.stop()
    assert client.returncode == 1
    assert "the servant rejected a payload (verify=1)" in client.stderr
    assert "octets_inout payload of 4095 bytes, expected 4096" in err and status == 1


def established_tcp(pid):
    """The ESTABLISHED TCP connections of `pid`, IPv4 and IPv6."""
    inodes = socket_inodes(pid)
    return [line for table in ("tcp", "tcp6")
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
            if line.split()[3] == "01" and line.split()[9] in inodes]


@pytest.mark.parametrize("orb_name", ORBS)
def test_a_collocated_call_takes_no_socket(tmp_path, orb_name):
    """Each ORB recognises its own servant's reference and calls it in process."""
    env, flag = measuring(tmp_path)
    proc = subprocess.Popen(
        [str(JAVA.program), "--role", "collocated", *cell("ping", "inproc"), *orb(orb_name),
         "--samples", "100000000", "--warmup", "0"],
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until_measuring(proc, flag)
        connections = established_tcp(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=HANG_S)
    assert connections == []


@pytest.mark.parametrize("orb_name", ORBS)
def test_random_targets_reach_every_servant_from_every_thread(tmp_path, orb_name):
    args = cell("ping", "tcp", 0, *VERIFY, *orb(orb_name), "--servants", "10",
                "--option", "target=random", "--threads", "3")
    server = JAVA.server(tmp_path, *args)
    client, output = JAVA.client(tmp_path, server, *args)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0 and "verify: 10 servants" in err and " 0 never called" in err, err
    header, samples = read_result(output)
    assert len(samples) == 600 and len(header["series"]) == 3
    assert len(header["middleware_config"]["warmup"]["threads"]) == 3


# The seeds of the IIOP interop matrix: each end on another ORB.
CROSSING = [("roundtrip", 0), ("octets_inout", 65536)]


def cross(tmp_path, server_driver, server_args, client_driver, client_args):
    """A server of one driver and ORB, a client of another, both verifying; returns the
    client's header and the server's stderr."""
    server = server_driver.server(tmp_path, *server_args)
    client, output = client_driver.client(tmp_path, server, *client_args)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    assert "verify: 1 servants" in err and " 0 never called" in err, err
    return read_result(output)[0]


def test_glassfish_on_its_nio_selector_or_blocking_sockets(tmp_path):
    """The GlassFish ORB's two socket settings interoperate, and each end records its own;
    JacORB has no such choice and refuses the option."""
    args = cell("octets_inout", "tcp", 65536, *VERIFY, *orb("glassfish"))
    header = cross(tmp_path, JAVA, [*args, "--option", "glassfish_sockets=blocking"],
                   JAVA, [*args, "--option", "glassfish_sockets=nio"])
    properties = header["middleware_config"]["orb_properties"]
    assert "com.sun.corba.ee.transport.ORBConnectionSocketType" not in properties
    refused = tmp_path / "refused"
    refused.mkdir()
    JAVA.assert_usage_error(refused, "server", *cell("ping", "tcp", 0),
                            "--option", "glassfish_sockets=nio",
                            message="only with --option orb=glassfish")


@pytest.mark.parametrize(("server_orb", "client_orb"), [("jacorb", "glassfish"),
                                                        ("glassfish", "jacorb")])
@pytest.mark.parametrize(("operation", "size"), CROSSING)
def test_one_java_orb_calls_the_other(tmp_path, server_orb, client_orb, operation, size):
    args = cell(operation, "tcp", size, *VERIFY)
    header = cross(tmp_path, JAVA, [*args, *orb(server_orb)], JAVA, [*args, *orb(client_orb)])
    assert header["middleware_config"]["orb"] == client_orb


@needs_omniorb
@pytest.mark.parametrize("orb_name", ORBS)
@pytest.mark.parametrize(("operation", "size"), CROSSING)
def test_omniorb_calls_a_java_server(tmp_path, orb_name, operation, size):
    args = cell(operation, "tcp", size, *VERIFY)
    header = cross(tmp_path, JAVA, [*args, *orb(orb_name)], OMNIORB, args)
    assert header["driver"] == "omniorb"


@needs_omniorb
@pytest.mark.parametrize("orb_name", ORBS)
@pytest.mark.parametrize(("operation", "size"), CROSSING)
def test_a_java_client_calls_omniorb(tmp_path, orb_name, operation, size):
    args = cell(operation, "tcp", size, *VERIFY)
    header = cross(tmp_path, OMNIORB, args, JAVA, [*args, *orb(orb_name)])
    assert header["middleware_config"]["orb"] == orb_name


@needs_omniorb
@pytest.mark.parametrize("orb_name", ORBS)
def test_omniorb_reaches_every_servant_of_a_java_server(tmp_path, orb_name):
    """omniORB follows the GlassFish server's forward, and JacORB's key map, per servant."""
    args = cell("ping", "tcp", 0, *VERIFY, "--servants", "10", "--option", "target=random")
    server = JAVA.server(tmp_path, *args, *orb(orb_name))
    client, _ = OMNIORB.client(tmp_path, server, *args)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0 and "verify: 10 servants" in err and " 0 never called" in err, err


@pytest.mark.parametrize("orb_name", ORBS)
def test_footprint_pauses_and_warmup_are_recorded(tmp_path, orb_name):
    """256 KiB from the servant per call: the client's stub allocates each reply, so the
    serial collector runs during the loop, and its pauses land on samples."""
    args = cell("octets_out", "tcp", 262144, *orb(orb_name))
    server = JAVA.server(tmp_path, *args)
    client, output = JAVA.client(tmp_path, server, *args, samples=500)
    assert server.stop()[0] == 0
    assert client.returncode == 0, client.stderr
    header, samples, named = read_result_with_series(output)
    config = header["middleware_config"]

    footprint = config["footprint"]
    assert footprint["classes_loaded"] > footprint["classes_loaded_before_probe"] > 1000
    assert footprint["class_bytes"] == footprint["class_loaders"]["total"]["block_bytes"] > 0
    app = footprint["class_loaders"]["app"]
    assert app["classes"] > 300 and app["block_bytes"] > 0
    assert 0 < footprint["rss_kb"] <= footprint["hwm_kb"]

    pauses, series = config["jvm_pauses"], named["jvm_pause"]
    assert len(series) == len(samples) == 500
    assert pauses["count"] >= 1 and pauses["operations"].get("GenCollectForAllocation", 0) >= 1
    assert 0 < sum(series) <= pauses["total_ns"]
    # A pause inside a sample is no longer than the sample (the first is estimated).
    assert all(pause <= sample for pause, sample in zip(series[1:], samples[1:], strict=True))

    jvm = config["jvm"]
    assert jvm["collectors"] == ["Copy", "MarkSweepCompact"]
    heap = [a for a in jvm["input_arguments"] if a.startswith(("-Xms", "-Xmx"))]
    assert len(heap) == 2 and heap[0][4:] == heap[1][4:]
    assert "-XX:+UseSerialGC" in jvm["input_arguments"]

    warmup = config["warmup"]["threads"][0]
    assert 2 <= warmup["rounds"] == len(warmup["median_ns"]) <= 50


@pytest.mark.parametrize("orb_name", ORBS)
def test_nothing_is_left_behind(tmp_path, orb_name):
    """Neither ORB nor the JVM writes a file of its own (no hsperfdata, no ORB log or
    database), and the safepoint log has no name: a server, its client and a collocated
    process leave only the endpoint and result files they were asked for."""
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    remote = [*cell("roundtrip", "tcp"), *orb(orb_name)]
    server = subprocess.Popen(
        [str(JAVA.program), "--role", "server", *remote, "--endpoint-file", "endpoint",
         "--output", "server.result"], cwd=work, env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_file(work / "endpoint", server)
        log = os.readlink(f"/proc/{server.pid}/fd/3")
        hsperfdata = Path(f"/tmp/hsperfdata_{os.environ.get('USER', 'root')}/{server.pid}")
        assert not hsperfdata.exists()
        for role, args in (("client", [*remote, "--endpoint-file", "endpoint"]),
                           ("collocated", [*cell("roundtrip", "inproc"), *orb(orb_name)])):
            done = subprocess.run(
                [str(JAVA.program), "--role", role, *args, "--output", f"{role}.result",
                 "--samples", "100", "--warmup", "10"],
                cwd=work, env=env, capture_output=True, text=True, timeout=HANG_S)
            assert done.returncode == 0, done.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=HANG_S)
    assert server.returncode == 0
    assert log.endswith(" (deleted)") and log.startswith(str(tmp))
    assert sorted(p.name for p in work.iterdir()) == [
        "client.result", "collocated.result", "endpoint", "server.result"]
    assert list(tmp.iterdir()) == []
