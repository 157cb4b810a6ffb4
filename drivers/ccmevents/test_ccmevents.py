"""End-to-end tests of mwbench-driver-ccmevents: every layer and delivery delivers
every event to every subscriber exactly once and in order (verify=1: each subscriber
checks the numbers and the payload), collocated and across processes by each gateway.

Needs a build ($MWBENCH_BUILD_DIR, default build/). Only the standard library and
pytest.
"""

import json
import signal
import subprocess

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    assert_every_event_delivered,
    assert_open_loop,
    cell,
    private_partition,
    read_result,
    read_result_with_series,
    run_fanout,
    wait_for_file,
)

from testsupport import namespaces

CCMEVENTS = Driver("ccmevents")
pytestmark = CCMEVENTS.built_or_skipped()
LAYERS = ["component", "object"]


def options(layer, delivery):
    private = private_partition({"dds_partition"}) if delivery == "dds" else []
    return ["--option", f"layer={layer}", "--option", f"delivery={delivery}",
            "--option", "verify=1", *private]


def test_describe():
    done = subprocess.run([str(CCMEVENTS.program), "--describe"], capture_output=True,
                          text=True, check=True)
    d = json.loads(done.stdout)
    assert d["modes"] == {"remote": ["iiop", "udp", "multicast", "dds", "zmq"],
                          "collocated": ["inproc"]}
    # Each delivery strategy says which transports it goes by (mwccm/delivery.hpp).
    assert d["option_transports"]["delivery"]["zmq"] == ["inproc", "zmq"]
    assert d["operations"] == {"roundtrip": {"payload": False}, "fanout": {"payload": True}}
    assert d["open_loop"] == ["roundtrip", "fanout"]
    assert {"layer", "delivery", "verify"} <= set(d["options"]) and "address" not in d["options"]
    assert "host_local" not in d  # every transport crosses hosts


@pytest.mark.parametrize("delivery", ["direct", "channel", "dds"])
@pytest.mark.parametrize("layer", LAYERS)
def test_collocated_every_subscriber_gets_every_event_once(tmp_path, layer, delivery):
    proc, output = CCMEVENTS.run("collocated", tmp_path, *cell("fanout", "inproc", 256),
                                 "--subscribers", "4", *options(layer, delivery))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200
    assert header["fanout"]["subscribers"] == 4
    assert_every_event_delivered(header)
    assert header["middleware_config"]["layer"] == layer


@pytest.mark.parametrize("layer", LAYERS)
def test_zmq_collocated_every_subscriber_gets_every_event_once(tmp_path, layer):
    proc, output = CCMEVENTS.run("collocated", tmp_path, *cell("fanout", "inproc", 256),
                                 "--subscribers", "4", *options(layer, "zmq"))
    assert proc.returncode == 0, proc.stderr
    header, samples = read_result(output)
    assert len(samples) == 200
    assert_every_event_delivered(header)


@pytest.mark.parametrize("layer", LAYERS)
def test_zmq_between_processes_every_subscriber_gets_every_event_once(tmp_path, layer):
    # A ZeroMQ gateway per subscriber process: each event once per process, the
    # object layer using the strategy's own gateway and receiver.
    header, samples, servers = run_fanout(
        CCMEVENTS, tmp_path, [*cell("fanout", "zmq", 1024), *options(layer, "zmq")], 4, 2)
    assert len(samples) == 200
    assert header["middleware_config"]["gateway"] == "zmq"
    for server in servers:
        channel = server["middleware_config"]["channel"]
        assert channel["received"] >= 200 and channel["duplicates"] == 0, channel


@pytest.mark.parametrize(("delivery", "transport"), [
    ("direct", "iiop"), ("channel", "iiop"), ("channel", "udp"), ("channel", "multicast"),
    ("dds", "dds")])
@pytest.mark.parametrize("layer", LAYERS)
def test_across_processes_every_subscriber_gets_every_event_once(tmp_path, layer, delivery,
                                                                transport):
    # Four subscribers in two processes: a channel sends each event once per
    # process (or once to the group), and each process's channel feeds its two.
    header, samples, servers = run_fanout(
        CCMEVENTS, tmp_path, [*cell("fanout", transport, 1024), *options(layer, delivery)], 4, 2)
    assert len(samples) == 200
    assert [server["fanout"]["subscribers"] for server in servers] == [2, 2]
    assert header["middleware_config"]["gateway"] == transport
    # Each subscriber process's result says what its channel received, and lost.
    for server in servers:
        channel = server["middleware_config"]["channel"]
        if delivery == "direct":  # calls, no channel between the processes
            assert channel["received"] == 0
            continue
        assert channel["received"] >= 200 and channel["duplicates"] == 0, channel
        (supplier,) = channel["suppliers"].values()  # the publisher, by its sequence numbers
        assert supplier["received"] == channel["received"] and supplier["duplicates"] == 0


def test_dds_goes_by_the_dds_transport_and_only_it(tmp_path):
    for transport, delivery in (("udp", "dds"), ("dds", "channel")):
        proc, _ = CCMEVENTS.run("client", tmp_path, *cell("fanout", transport, 0),
                                "--endpoint-file", str(tmp_path / "none"),
                                "--option", f"delivery={delivery}")
        assert proc.returncode == 2, proc.stderr
        assert f"--transport {transport}" in proc.stderr


def test_direct_delivery_between_processes_needs_iiop(tmp_path):
    proc, _ = CCMEVENTS.run("client", tmp_path, *cell("fanout", "udp", 0),
                            "--endpoint-file", str(tmp_path / "none"),
                            "--option", "delivery=direct")
    assert proc.returncode == 2
    assert "delivery=direct goes by iiop" in proc.stderr


def test_an_unknown_layer_is_refused(tmp_path):
    proc, _ = CCMEVENTS.run("collocated", tmp_path, *cell("fanout", "inproc", 0),
                            "--option", "layer=aspect")
    assert proc.returncode == 2 and "layer=aspect" in proc.stderr


@pytest.mark.parametrize("transport, option", [
    ("inproc", "multicast_interface=$(touch x)"),
    ("inproc", "multicast_interface=0.0.0.0"),
    ("multicast", "multicast_interface=198.18.255.254"),  # no interface has it
    ("inproc", "multicast_group=127.0.0.1:9"),  # not a multicast group
    ("inproc", "multicast_group=239.1.2.3:99999999999"),
    ("inproc", "multicast_group=239.1.2.3"),
])
def test_a_bad_multicast_option_is_refused_naming_it(tmp_path, transport, option):
    role = "collocated" if transport == "inproc" else "server"
    extra = [] if role == "collocated" else ["--endpoint-file", tmp_path / "endpoint"]
    proc, _ = CCMEVENTS.run(role, tmp_path, *cell("fanout", transport, 0), *extra,
                            "--option", option)
    key = option.partition("=")[0]
    assert proc.returncode == 2, proc.stderr
    assert f"--option {key}=" in proc.stderr and len(proc.stderr.splitlines()) == 1


@pytest.mark.skipif(namespaces.unavailable() is not None, reason=str(namespaces.unavailable()))
@pytest.mark.parametrize(("delivery", "transport"), [
    ("channel", "udp"), ("channel", "multicast"), ("channel", "iiop"), ("direct", "iiop"),
    ("dds", "dds"), ("zmq", "zmq")])
def test_subscribers_on_two_other_hosts_get_every_event_once(tmp_path, delivery, transport):
    # Hosts are network namespaces (198.18.0.0/24), each process on its host's
    # address (--bind): the publisher's gateway sends from its own interface, once
    # per host (udp) or once for both (multicast); its DDS participant finds the
    # subscribers' by unicast at the addresses their endpoints carry.
    common = [*cell("fanout", transport, 512), *options("component", delivery),
              "--samples", "200", "--warmup", "20"]
    with namespaces.hosts(3) as (publisher, *others):
        servers, endpoints = [], []
        for number, host in enumerate(others):
            endpoint, output = tmp_path / f"endpoint-{number}", tmp_path / f"server-{number}"
            servers.append((host.start(
                [CCMEVENTS.program, "--role", "server", *common, "--subscribers", "1",
                 "--first-subscriber", str(number), "--endpoint-file", endpoint,
                 "--output", output, "--bind", host.address],
                stderr=subprocess.PIPE, text=True), output))
            wait_for_file(endpoint, servers[-1][0])
            endpoints += ["--endpoint-file", endpoint]
        client = publisher.run(
            [CCMEVENTS.program, "--role", "client", *common, "--subscribers", "2", *endpoints,
             "--output", tmp_path / "client", "--bind", publisher.address],
            capture_output=True, text=True, timeout=HANG_S)
        assert client.returncode == 0, client.stderr
        for server, _ in servers:
            server.send_signal(signal.SIGTERM)
            assert server.wait(timeout=HANG_S) == 0, server.stderr.read()
    header, _ = read_result(tmp_path / "client")
    assert_every_event_delivered(header, [read_result(output)[0] for _, output in servers])



OPEN_LOOP = ["--load", "constant:2000"]


@pytest.mark.parametrize("delivery", ["direct", "channel", "dds"])
def test_open_loop_collocated(tmp_path, delivery):
    # direct and channel call the subscribers within the push (each call completes
    # on the pushing thread); dds delivers on its reader's thread.
    proc, output = CCMEVENTS.run("collocated", tmp_path, *cell("fanout", "inproc", 64),
                                 "--subscribers", "3", *options("component", delivery),
                                 *OPEN_LOOP)
    assert proc.returncode == 0, proc.stderr
    header, samples, named = read_result_with_series(output)
    assert_open_loop(header, samples, named)
    assert_every_event_delivered(header)  # each event once, in order (verify=1)


@pytest.mark.parametrize(("delivery", "transport"), [("channel", "iiop"), ("direct", "iiop")])
def test_open_loop_across_processes(tmp_path, delivery, transport):
    # Events in flight at once; a thread of the publisher's reads the replies of the
    # two subscriber processes and completes each event at its last reply.
    header, _, _ = run_fanout(CCMEVENTS, tmp_path,
                              [*cell("fanout", transport, 256), *options("object", delivery)],
                              4, 2, *OPEN_LOOP)
    header, samples, named = read_result_with_series(tmp_path / "client.result")
    assert_open_loop(header, samples, named)


@pytest.mark.parametrize("load", ["constant:2000", "poisson:2000"])
def test_open_loop_roundtrip(tmp_path, load):
    args = [*cell("roundtrip", "iiop"), *options("component", "channel")]
    server = CCMEVENTS.server(tmp_path, *args)  # --load is the publisher's alone
    proc, output = CCMEVENTS.client(tmp_path, server, *args, "--load", load)
    status, err = server.stop()
    assert proc.returncode == 0, proc.stderr
    assert status == 0, err
    assert_open_loop(*read_result_with_series(output), load=load)
