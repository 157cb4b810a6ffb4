"""What both DDS drivers do alike, checked once on each (cyclonedds over UDP, fastdds over
UDP and shared memory): the ping/pong round trip and its payload check, the collocated
echo, the open loop (--load), the failures a user meets, and the fan-out
(docs/driver-contract-fanout.md).

Each driver's own test file holds what only it does (its configuration, its transports'
particulars, Fast DDS's shared-memory clean-up).
"""

import os
import signal
import subprocess

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    assert_every_event_delivered,
    assert_open_loop_result,
    cell,
    no_fastdds_files_left,  # noqa: F401 - an autouse fixture of every test here
    read_result,
    run_fanout,
    wait_for_file,
)

from testsupport import namespaces

WAITS = ["waitset", "listener", "poll"]
REMOTE_WAITS = [*WAITS, "chain"]  # chain: remote only
CELLS = [("cyclonedds", "udp"), ("fastdds", "udp"), ("fastdds", "shm")]
DRIVERS = {name: Driver(name) for name, _ in CELLS}
# Fast DDS's files in /dev/shm are counted machine-wide, by every test here (conftest.py).
pytestmark = pytest.mark.once_per_machine


def each_cell(*marks):
    return pytest.mark.parametrize("driver, transport", [
        pytest.param(DRIVERS[name], transport, id=f"{name}-{transport}",
                     marks=[DRIVERS[name].built_or_skipped(), *marks])
        for name, transport in CELLS])


def each_driver():
    return pytest.mark.parametrize("driver", [
        pytest.param(d, id=name, marks=d.built_or_skipped()) for name, d in DRIVERS.items()])


def client(driver, tmp_path, args, samples=200):
    return driver.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"), *args,
                      samples=samples)


@each_cell()
@pytest.mark.parametrize("wait", REMOTE_WAITS)
def test_round_trip(driver, transport, tmp_path, wait):
    args = cell("roundtrip", transport, 0, "--option", f"wait={wait}")
    server = DriverServer(str(driver.program), tmp_path, args)
    endpoint = server.endpoint.read_text().strip()
    fields = dict(f.split("=") for f in endpoint.removeprefix("dds:").split(";"))
    assert endpoint.startswith("dds:") and 1 <= int(fields["domain"]) <= 100
    assert fields["ping"] == f"mwbench_ping_{server.proc.pid}"
    assert fields["pong"] == f"mwbench_pong_{server.proc.pid}"
    assert fields["address"] == "127.0.0.1"  # --bind's default

    proc, output = client(driver, tmp_path, args)
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["sample_count"] == len(samples) == 200
    assert header["options"]["wait"] == wait and header["transport"] == transport
    config = header["middleware_config"]
    assert config["wait"] == wait and config["domain_id"] == int(fields["domain"])
    assert config["topics"] == {"ping": fields["ping"], "pong": fields["pong"]}
    assert {"reliability": "reliable", "history": "keep_last 1",
            "durability": "volatile"}.items() <= config["qos"].items()

    status, err = server.stop()
    assert status == 0, err
    server_header, server_samples = read_result(server.output)
    assert server_header["role"] == "server" and server_samples == []
    assert server_header["middleware_config"]["domain_id"] == int(fields["domain"])


@each_cell()
@pytest.mark.parametrize("payload", [0, 1, 1000, 65536, 1 << 20])
@pytest.mark.parametrize("wait", ["waitset", "chain"])
def test_octets_payload_arrives_intact(driver, transport, tmp_path, payload, wait):
    # verify=1: the server checks every byte, the pong says whether all were right.
    args = cell("octets", transport, payload, "--option", "verify=1", "--option", f"wait={wait}")
    server = DriverServer(str(driver.program), tmp_path, args)
    proc, output = client(driver, tmp_path, args, samples=30)
    assert proc.returncode == 0, proc.stderr
    header, _ = read_result(output)
    assert header["payload_bytes"] == payload and header["sample_count"] == 30
    status, err = server.stop()
    assert status == 0, err


@each_cell()
@pytest.mark.parametrize("wait", ["waitset", "chain"])
def test_a_wrong_payload_fails_both_ends(driver, transport, tmp_path, wait):
    server = DriverServer(str(driver.program), tmp_path,
                          cell("octets", transport, 16, "--option", "verify=1"))
    proc, _ = client(driver, tmp_path, cell("octets", transport, 8, "--option", "verify=1",
                                            "--option", f"wait={wait}"))
    assert proc.returncode == 1
    assert "octets: the server found a payload mismatch (verify=1)" in proc.stderr
    assert server.proc.wait(timeout=HANG_S) == 1
    assert "payload mismatch at byte 8 of 8 (expected 16 bytes" in server.proc.stderr.read()


@each_driver()
@pytest.mark.parametrize("wait", WAITS)
@pytest.mark.parametrize("operation,payload", [("roundtrip", 0), ("octets", 4096)])
def test_collocated(driver, tmp_path, wait, operation, payload):
    proc, output = driver.run("collocated", tmp_path, *cell(
        operation, "inproc", payload, "--option", f"wait={wait}", "--option", "verify=1",
        "--batch", "auto"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert header["role"] == "collocated" and len(samples) == 200
    assert header["batch_size"] >= 1
    pid = header["process"]["pid"]
    assert header["middleware_config"]["topics"]["ping"] == f"mwbench_ping_{pid}"


# ---- open loop (--load; drivers/common/open_loop_pings.hpp) --------------------------------

LOADS = ["constant:2000", "poisson:2000"]


@each_cell()
@pytest.mark.parametrize("wait, load", [
    ("waitset", "constant:2000"), ("waitset", "poisson:2000"),
    ("listener", "poisson:2000"), ("poll", "constant:2000")])
def test_open_loop(driver, transport, tmp_path, wait, load):
    args = cell("roundtrip", transport, 0, "--option", f"wait={wait}")
    server = DriverServer(str(driver.program), tmp_path, args)
    proc, output = client(driver, tmp_path, [*args, "--load", load])
    assert proc.returncode == 0, proc.stderr
    header = assert_open_loop_result(output, load)
    # Both ends queue what is outstanding; a closed loop's client keeps one (test_round_trip).
    assert header["middleware_config"]["qos"]["history"] == "keep_last 256"
    assert server.stop()[0] == 0
    assert read_result(server.output)[0]["middleware_config"]["qos"]["history"] == "keep_last 256"


@each_driver()
@pytest.mark.parametrize("wait", ["waitset", "listener"])
@pytest.mark.parametrize("load", LOADS)
def test_open_loop_collocated_octets(driver, tmp_path, wait, load):
    proc, output = driver.run("collocated", tmp_path, *cell(
        "octets", "inproc", 4096, "--option", f"wait={wait}", "--option", "verify=1",
        "--load", load))
    assert proc.returncode == 0, proc.stderr
    assert assert_open_loop_result(output, load)["payload_bytes"] == 4096


@each_driver()
def test_open_loop_describe(driver):
    assert driver.describe()["open_loop"] == ["roundtrip", "octets"]


@each_driver()
@pytest.mark.parametrize("operation, option, message", [
    ("roundtrip", "wait=chain", "--option wait=chain with --load constant:2000: the chain "
     "writes each ping when the previous pong arrives, a closed loop"),
    ("fanout", "wait=waitset", "has no open-loop load for operation fanout"),
])
def test_open_loop_refusals_are_exit_2(driver, tmp_path, operation, option, message):
    driver.assert_usage_error(tmp_path, "client", *cell(operation, "udp", 0, "--option", option,
                                                       "--load", "constant:2000"),
                              message=message)


@each_cell()
def test_client_fails_when_no_reader_matches(driver, transport, tmp_path):
    # A server that never started DDS: its endpoint names topics nobody serves.
    (tmp_path / "endpoint").write_text(
        f"dds:domain=7;ping=nobody_ping_{os.getpid()};pong=nobody_pong_{os.getpid()};"
        "address=127.0.0.1\n")
    proc, output = client(driver, tmp_path, cell("roundtrip", transport, 0, "--timeout", "1"))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"mwbench-driver-{driver.name}: error: no matching reader on "
                                  f"topic nobody_ping_{os.getpid()} after 1 s (domain 7;")
    assert not output.exists()


@each_driver()
@pytest.mark.parametrize("args,message", [
    (cell("roundtrip", "udp", 0, "--option", "wait=spin"),
     "--option wait=spin: allowed values: waitset, listener, poll, chain"),
    (cell("roundtrip", "udp", 0, "--option", "verify=2"), "verify"),
    (cell("roundtrip", "udp", 0, "--threads", "2"), "--threads 2"),
    (cell("roundtrip", "udp", 0, "--servants", "2"), "--servants 2"),
    (cell("roundtrip", "tcp", 0), "tcp"),
    (cell("roundtrip", "udp", 8), "--payload-bytes 8"),
    (cell("ping", "udp", 0), "ping"),
])
def test_bad_arguments_are_exit_2(driver, tmp_path, args, message):
    proc, _ = client(driver, tmp_path, args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"mwbench-driver-{driver.name}: error:")
    assert message in proc.stderr


@each_cell()
@pytest.mark.parametrize("wait", REMOTE_WAITS)
def test_server_stops_on_sigterm(driver, transport, tmp_path, wait):
    server = DriverServer(str(driver.program), tmp_path,
                          cell("roundtrip", transport, 0, "--option", f"wait={wait}"))
    status, err = server.stop()
    assert status == 0, err
    assert read_result(server.output)[0]["role"] == "server"


# ---- fanout (docs/driver-contract-fanout.md) ---------------------------------------------


@each_cell()
@pytest.mark.parametrize("subscribers,processes", [(1, 1), (4, 1), (4, 4)])
def test_fanout(driver, transport, tmp_path, subscribers, processes):
    # run_fanout checks that every subscriber received every event, no more.
    header, samples, servers = run_fanout(driver, tmp_path, cell("fanout", transport, 0),
                                          subscribers, processes)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == processes
    config = header["middleware_config"]
    partitions = [s["middleware_config"]["partitions"][0] for s in servers]
    assert config["partitions"] == partitions
    assert partitions == [f"mwbench_fanout_{s['process']['pid']}" for s in servers]
    assert {config["domain_id"]} == {s["middleware_config"]["domain_id"] for s in servers}


@each_cell()
def test_fanout_payload_arrives_intact(driver, transport, tmp_path):
    # verify=1: every subscriber checks every byte, its reply says whether all were right.
    header, _, _ = run_fanout(driver, tmp_path,
                              cell("fanout", transport, 1000, "--option", "verify=1"), 4, 2)
    assert header["payload_bytes"] == 1000


@each_cell()
def test_fanout_with_listeners(driver, transport, tmp_path):
    run_fanout(driver, tmp_path, cell("fanout", transport, 0, "--option", "wait=listener"), 4, 2)


@each_driver()
@pytest.mark.parametrize("wait", ["waitset", "listener"])
def test_fanout_collocated(driver, tmp_path, wait):
    proc, output = driver.run("collocated", tmp_path, *cell(
        "fanout", "inproc", 1000, "--option", f"wait={wait}", "--option", "verify=1",
        "--subscribers", "4"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200 and header["fanout"]["subscriber_processes"] == 0
    assert_every_event_delivered(header)


@each_driver()
@pytest.mark.parametrize("operation, role, message", [
    ("fanout", "client", "--option wait=chain: fanout waits for every subscriber's reply"),
    ("roundtrip", "collocated", "--option wait=chain: remote only"),
])
def test_chain_is_for_a_remote_round_trip(driver, tmp_path, operation, role, message):
    args = cell(operation, "inproc" if role == "collocated" else "udp", 0,
                "--option", "wait=chain")
    extra = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run([str(driver.program), "--role", role, *extra, *args],
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


@each_driver()
@pytest.mark.parametrize("role", ["client", "collocated", "server"])
def test_fanout_refuses_more_spinners_than_cpus(driver, tmp_path, role):
    # wait=poll spins a thread per subscriber and the publisher's: N + 1 of them.
    subscribers = os.cpu_count()
    args = cell("fanout", "inproc" if role == "collocated" else "udp", 0,
                "--option", "wait=poll", "--subscribers", str(subscribers))
    extra = [] if role == "collocated" else ["--endpoint-file", str(tmp_path / "endpoint")]
    proc = subprocess.run([str(driver.program), "--role", role, *extra, *args],
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2, proc.stderr
    assert (f"--option wait=poll with --subscribers {subscribers}: fanout would spin "
            f"{subscribers + 1} threads") in proc.stderr
    assert not (tmp_path / "endpoint").exists()


@each_cell()
def test_fanout_fails_within_the_timeout_when_a_subscriber_is_missing(driver, transport,
                                                                      tmp_path):
    # Subscriber process 0 runs; subscriber process 1's endpoint names a partition
    # nobody serves (its process never started DDS).
    args = cell("fanout", transport, 0)
    server = driver.server(tmp_path, *args, "--subscribers", "1")
    missing = tmp_path / "missing-endpoint"
    missing.write_text("dds:domain=100;partition=mwbench_fanout_nobody_"
                       f"{os.getpid()};event=mwbench_fanout_event;reply=mwbench_fanout_reply;"
                       "address=127.0.0.1\n")
    proc, output = driver.run("client", tmp_path, "--endpoint-file", str(server.endpoint),
                              "--endpoint-file", str(missing), *args, "--subscribers", "2",
                              "--timeout", "2")
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        f"mwbench-driver-{driver.name}: error: 1 of 2 subscribers (1) did not answer the "
        "fan-out handshake after 2 s: the event writer matched 1 of 2 readers"), proc.stderr
    assert not output.exists()
    assert server.stop()[0] == 0


# ---- across hosts (docs/driver-contract.md section 3) ------------------------------------


@pytest.mark.skipif(namespaces.unavailable() is not None, reason=str(namespaces.unavailable()))
@each_driver()
@pytest.mark.parametrize("operation, servers", [("roundtrip", 1), ("fanout", 2)])
def test_a_client_on_another_host_finds_its_servers_by_unicast(driver, tmp_path, operation,
                                                               servers):
    """Hosts are network namespaces (198.18.0.0/24), each process on its host's address
    (--bind), with no multicast in the configuration: the client (the publisher) names
    the addresses its servers' endpoints carry as peers, and each server, which names
    none, learns the client from its announcement."""
    args = [*cell(operation, "udp", 0), "--samples", "200", "--warmup", "20"]
    with namespaces.hosts(servers + 1) as (client_host, *server_hosts):
        started, endpoints = [], []
        for number, host in enumerate(server_hosts):
            endpoint, output = tmp_path / f"endpoint-{number}", tmp_path / f"server-{number}"
            fanout = ["--first-subscriber", str(number)] if operation == "fanout" else []
            started.append((host.start(
                [driver.program, "--role", "server", *args, *fanout, "--endpoint-file", endpoint,
                 "--output", output, "--bind", host.address],
                stderr=subprocess.PIPE, text=True), output))
            wait_for_file(endpoint, started[-1][0])
            endpoints += ["--endpoint-file", endpoint]
        fanout = ["--subscribers", str(servers)] if operation == "fanout" else []
        client = client_host.run(
            [driver.program, "--role", "client", *args, *fanout, *endpoints,
             "--output", tmp_path / "client", "--bind", client_host.address],
            capture_output=True, text=True, timeout=HANG_S)
        for server, _ in started:
            server.send_signal(signal.SIGTERM)
            assert server.wait(timeout=HANG_S) == 0, server.stderr.read()
    assert client.returncode == 0, client.stderr
    header, samples = read_result(tmp_path / "client")
    assert len(samples) == 200
    if operation == "fanout":
        assert_every_event_delivered(header, [read_result(output)[0] for _, output in started])
