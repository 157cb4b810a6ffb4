"""Java and C++ components across languages: a Java client navigates a C++ mwccm
component (mwbench-driver-ccm's component server) and calls through a Java Caller's
receptacle into it; a C++ client (mwccm-java-peer-client, and mwbench-driver-ccm's own
client) navigates a Java component, connects by name with the Java server's cookies, and
calls through a C++ Caller's receptacle and event source into it. On both Java ORBs."""

import pytest
from driver_processes import Driver
from java_layer import (
    CCM_DRIVER,
    ORBS,
    PEER_CLIENT,
    built_or_skipped,
    cpp_host,
    java,
    java_host,
    run,
)

pytestmark = [built_or_skipped(), Driver("ccm").built_or_skipped()]


@pytest.mark.parametrize("orb", ORBS)
def test_java_client_navigates_a_cpp_component(tmp_path, orb):
    with cpp_host(tmp_path, "--operation", "event_value", "--payload-bytes", "64") as server:
        checks = run(java(orb, "org.mwccm.checks.ComponentChecks", server.endpoint,
                          "navigation", "lifecycle"))
        caller = run(java(orb, "org.mwccm.ccmperf.CcmPerfHost", "--caller", "--endpoint-file",
                          server.endpoint, "--calls", "300", "--events", "10",
                          "--payload-bytes", "64"))
        status, err = server.stop()
    assert checks.returncode == 0, checks.stderr
    assert checks.stdout.split() == ["ok:", "navigation", "ok:", "lifecycle"]
    assert caller.returncode == 0, caller.stderr
    assert status == 0, err
    # navigation's 2 calls, lifecycle's 1 (the C++ Receivers count together), the Caller's 300
    assert "verify: 303 calls, 10 value events, 10 struct events, 0 bad" in err


@pytest.mark.parametrize("orb", ORBS)
def test_cpp_client_navigates_a_java_component(tmp_path, orb):
    with java_host(orb, tmp_path) as server:
        done = run([PEER_CLIENT, server.endpoint])
        status, err = server.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok:", "navigation", "ok:", "receptacles"]
    assert status == 0, err
    assert "verify: 1 calls, 0 value events, 0 struct events, 0 bad" in err


@pytest.mark.parametrize("orb", ORBS)
@pytest.mark.parametrize(("scenario", "operation", "summary"), [
    ("obj-comp", "roundtrip", "verify: 221 calls, 0 value events, 0 struct events, 0 bad"),
    ("comp-comp", "roundtrip", "verify: 221 calls, 0 value events, 0 struct events, 0 bad"),
    ("comp-comp", "event_value", "verify: 1 calls, 220 value events, 0 struct events, 0 bad"),
])
def test_ccm_driver_client_against_a_java_component(tmp_path, orb, scenario, operation, summary):
    """The C++ client of drivers/ccm narrows the Java Receiver, provide_control(), and calls
    (obj-comp) or has its own C++ Caller call through `peer` and push to the sink (comp-comp)."""
    payload = ["--payload-bytes", "64"] if operation == "event_value" else []
    with java_host(orb, tmp_path, *payload) as server:
        done = run([CCM_DRIVER, "--role", "client", "--transport", "tcp", "--operation", operation,
                    "--option", f"scenario={scenario}", "--option", "verify=1", *payload,
                    "--endpoint-file", server.endpoint, "--output", tmp_path / "client.result",
                    "--timeout", "60", "--samples", "200", "--warmup", "20"])
        status, err = server.stop()
    assert done.returncode == 0, done.stderr
    assert status == 0, err
    assert summary in err
