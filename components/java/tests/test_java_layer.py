"""The Java component layer (components/java) on both Java ORBs, with real processes:
a CcmPerfHost serves CcmPerf's Receiver and a Caller home, and a client in another process
navigates, connects and calls, on the same ORB or the other one. Every server checks
what it receives (verify) and says so when stopped; nothing here times anything."""

import pytest
from java_layer import ORBS, built_or_skipped, java, java_host, run

pytestmark = built_or_skipped()
PAIRS = [(server, client) for server in ORBS for client in ORBS]


@pytest.mark.parametrize(("server_orb", "client_orb"), PAIRS)
def test_navigation_connections_and_homes(tmp_path, server_orb, client_orb):
    """provide_facet by name, InvalidName, get_all_ports; set_configuration,
    configuration_complete, create and remove through the home; connect and
    disconnect, subscribe and unsubscribe with cookies, and every refusal's message."""
    with java_host(server_orb, tmp_path) as server:
        done = run(java(client_orb, "org.mwccm.checks.ComponentChecks", server.endpoint,
                        "navigation", "lifecycle", "receptacles"))
        status, err = server.stop()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok:", "navigation", "ok:", "lifecycle", "ok:", "receptacles"]
    assert status == 0, err
    assert "verify: 2 calls, 0 value events, 0 struct events, 0 bad" in err


@pytest.mark.parametrize(("server_orb", "client_orb"), PAIRS)
def test_caller_calls_through_its_receptacle_into_another_process(tmp_path, server_orb,
                                                                   client_orb):
    """The Caller's executor calls test_method through its `peer` receptacle, connected to
    the Receiver's facet in the server, and pushes both kinds of event to its sinks."""
    with java_host(server_orb, tmp_path, "--payload-bytes", "100") as server:
        done = run(java(client_orb, "org.mwccm.ccmperf.CcmPerfHost", "--caller",
                        "--endpoint-file", server.endpoint, "--calls", "500", "--events", "20",
                        "--payload-bytes", "100"))
        status, err = server.stop()
    assert done.returncode == 0, done.stderr
    assert "caller: 500 calls, 20 value events, 20 struct events" in done.stdout
    assert status == 0, err
    assert "verify: 500 calls, 20 value events, 20 struct events, 0 bad" in err


@pytest.mark.parametrize("orb", ORBS)
def test_a_wrong_event_payload_is_found_and_fails_the_server(tmp_path, orb):
    """verify checks: events of 10 bytes at a Receiver told to expect 100 are refused."""
    with java_host(orb, tmp_path, "--payload-bytes", "100") as server:
        done = run(java(orb, "org.mwccm.ccmperf.CcmPerfHost", "--caller", "--endpoint-file",
                        server.endpoint, "--calls", "1", "--events", "1", "--payload-bytes", "10"))
        status, err = server.stop()
    assert done.returncode != 0
    assert "BAD_PARAM" in done.stderr
    assert status == 1
    assert "value event 1: payload of 10 bytes is not the pattern of 100" in err


@pytest.mark.parametrize("arguments", [[], ["--endpoint-file"], ["--endpoint-file", "x",
                                                                   "--calls", "many"]])
def test_host_usage_errors_exit_2(arguments):
    done = run(java("jacorb", "org.mwccm.ccmperf.CcmPerfHost", *arguments))
    assert done.returncode == 2
    assert done.stderr.startswith("CcmPerfHost: error: ")
