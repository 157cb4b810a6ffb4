"""The Java driver's component scenarios (CCMPerf's, as drivers/ccm has them) on both
ORBs: a Receiver of the Java component layer (components/java) serving the calls through
its facet, a Caller calling through its receptacle, or both; every payload checked
(verify=1) and the Receiver's summary said by the server. And across languages: the
C++ ccm driver's client against the Java driver's component server, and the reverse."""

import re

import pytest
from driver_processes import Driver, cell, read_result

JAVA = Driver("java")
CCM = Driver("ccm")
ORBS = ["jacorb", "glassfish"]
VERIFY = ["--option", "verify=1"]
pytestmark = JAVA.built_or_skipped()


def options(orb, scenario):
    return ["--option", f"orb={orb}", "--option", f"scenario={scenario}", *VERIFY]


def receiver_summary(err):
    """The calls, events and bad payloads the server's Receiver counted."""
    found = re.search(r"verify: (\d+) calls, 0 value events, 0 struct events, (\d+) bad", err)
    assert found, err
    return int(found[1]), int(found[2])


@pytest.mark.parametrize("orb", ORBS)
@pytest.mark.parametrize("scenario", ["obj-comp", "comp-obj", "comp-comp"])
@pytest.mark.parametrize(("operation", "size"), [("roundtrip", 0), ("octets_inout", 4096)])
def test_component_scenarios_verified(tmp_path, orb, scenario, operation, size):
    args = cell(operation, "tcp", size, *options(orb, scenario))
    server = JAVA.server(tmp_path, *args)
    client, output = JAVA.client(tmp_path, server, *args)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples = read_result(output)
    assert len(samples) == 200
    assert header["middleware_config"]["scenario"] == scenario
    if scenario.endswith("-comp"):
        calls, bad = receiver_summary(err)
        assert calls >= 221 and bad == 0  # the first call, warm-up and samples, at least
    else:
        assert "verify: 1 servants" in err and " 0 never called" in err, err


@pytest.mark.parametrize("orb", ORBS)
def test_collocated_comp_comp_and_the_layer_option(tmp_path, orb):
    proc, output = JAVA.run("collocated", tmp_path, *cell("roundtrip", "inproc", 0, *VERIFY),
                            "--option", f"orb={orb}", "--option", "layer=component")
    assert proc.returncode == 0, proc.stderr
    assert read_result(output)[0]["middleware_config"]["scenario"] == "comp-comp"
    assert receiver_summary(proc.stderr)[1] == 0


@pytest.mark.parametrize(("role", "extra", "message"), [
    ("client", ["--option", "scenario=comp-comp", "--option", "layer=object"],
     "--option layer=object is scenario obj-obj, not the --option scenario=comp-comp"),
    ("collocated", ["--option", "scenario=obj-comp"], "collocated runs obj-obj and comp-comp"),
    ("server", ["--option", "scenario=comp-comp", "--servants", "2"], "(--servants 1)"),
    ("server", ["--option", "scenario=objects"],
     "--option scenario=objects: not a value of scenario"),
])
def test_component_usage_errors(tmp_path, role, extra, message):
    transport = "inproc" if role == "collocated" else "tcp"
    JAVA.assert_usage_error(tmp_path, role, *cell("roundtrip", transport), *extra,
                            message=message)


@CCM.built_or_skipped()
@pytest.mark.parametrize("orb", ORBS)
def test_ccm_driver_client_calls_the_java_driver_component_server(tmp_path, orb):
    """The same endpoint (component=IOR) as the ccm driver's server: its C++ client
    navigates the Java Receiver and calls through its own C++ Caller's receptacle."""
    server = JAVA.server(tmp_path, *cell("roundtrip", "tcp", 0, *options(orb, "comp-comp")))
    client, _ = CCM.client(tmp_path, server, *cell("roundtrip", "tcp", 0, *VERIFY),
                           "--option", "scenario=comp-comp", "--timeout", "60")
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    assert receiver_summary(err) == (221, 0)


@CCM.built_or_skipped()
@pytest.mark.parametrize("orb", ORBS)
def test_java_driver_client_calls_the_ccm_driver_component_server(tmp_path, orb):
    """A Java Caller's receptacle connected to the C++ Receiver's facet."""
    server = CCM.server(tmp_path, *cell("roundtrip", "tcp", 0, *VERIFY),
                        "--option", "scenario=comp-comp")
    client, _ = JAVA.client(tmp_path, server, *cell("roundtrip", "tcp", 0,
                                                    *options(orb, "comp-comp")))
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    calls, bad = receiver_summary(err)
    assert calls >= 221 and bad == 0
