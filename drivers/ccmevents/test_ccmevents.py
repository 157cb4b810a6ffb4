"""End-to-end tests of mwbench-driver-ccmevents: every layer and delivery delivers
every event to every subscriber exactly once and in order (verify=1: each subscriber
checks the numbers and the payload), collocated and across processes by each gateway.

Needs a build ($MWBENCH_BUILD_DIR, default build/). Only the standard library and
pytest.
"""

import json
import subprocess

import pytest
from driver_processes import Driver, assert_every_event_delivered, cell, read_result, run_fanout

CCMEVENTS = Driver("ccmevents")
pytestmark = CCMEVENTS.built_or_skipped()
LAYERS = ["component", "object"]


def options(layer, delivery):
    return ["--option", f"layer={layer}", "--option", f"delivery={delivery}",
            "--option", "verify=1"]


def test_describe():
    done = subprocess.run([str(CCMEVENTS.program), "--describe"], capture_output=True,
                          text=True, check=True)
    d = json.loads(done.stdout)
    assert d["modes"] == {"remote": ["iiop", "udp", "multicast"], "collocated": ["inproc"]}
    assert d["operations"] == {"roundtrip": {"payload": False}, "fanout": {"payload": True}}
    assert {"layer", "delivery", "verify", "address"} <= set(d["options"])


@pytest.mark.parametrize("delivery", ["direct", "channel"])
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


@pytest.mark.parametrize(("delivery", "transport"), [
    ("direct", "iiop"), ("channel", "iiop"), ("channel", "udp"), ("channel", "multicast")])
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


def test_direct_delivery_between_processes_needs_iiop(tmp_path):
    proc, _ = CCMEVENTS.run("client", tmp_path, *cell("fanout", "udp", 0),
                            "--endpoint-file", str(tmp_path / "none"),
                            "--option", "delivery=direct")
    assert proc.returncode == 2
    assert "delivery=direct calls every subscriber over iiop" in proc.stderr


def test_an_unknown_layer_is_refused(tmp_path):
    proc, _ = CCMEVENTS.run("collocated", tmp_path, *cell("fanout", "inproc", 0),
                            "--option", "layer=aspect")
    assert proc.returncode == 2 and "layer=aspect" in proc.stderr
