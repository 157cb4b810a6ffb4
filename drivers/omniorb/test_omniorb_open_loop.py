"""mwbench-driver-omniorb under an open-loop --load: AMI callbacks sent on a schedule, each
reply reported by the ReplyHandler. Checks the result header's `load` object and the
samples against their named series, never a time.
"""

import os
import signal
import subprocess

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    cell,
    measuring,
    read_result,
    read_result_with_series,
    wait_until_measuring,
)
from omniorb_processes import DRIVER

pytestmark = pytest.mark.skipif(not DRIVER.exists(), reason=f"{DRIVER} not built")

OMNIORB = Driver("omniorb")
SAMPLES = 200


def open_cell(tmp_path, load, operation="roundtrip", payload=0, *options, collocated=False):
    """A cell at `load` (the client's alone: a server takes no --load); returns (header,
    samples, named series)."""
    args = [*cell(operation, "inproc" if collocated else "tcp", payload), *options]
    client_args = ["--load", load, "--load-seed", "7"]
    if collocated:
        proc, output = OMNIORB.run("collocated", tmp_path, *args, *client_args)
        assert proc.returncode == 0, proc.stderr
        return read_result_with_series(output)
    server = OMNIORB.server(tmp_path, *args)
    proc, output = OMNIORB.client(tmp_path, server, *args, *client_args)
    status, err = server.stop()
    assert proc.returncode == 0, proc.stderr
    assert status == 0, err
    return read_result_with_series(output)


def assert_open_loop_result(header, samples, named, kind, pool=1):
    load = header["load"]
    assert load["kind"] == kind and load["rate_per_s"] == 2000.0
    assert load["calls"] == SAMPLES
    assert load["lost"] == 0, "every call is answered on loopback"
    assert header["sample_count"] == len(samples) == load["calls"] - load["lost"]
    assert 0 <= load["outstanding_at_end"] <= load["calls"]
    assert 0 <= load["late_sends"] <= load["calls"]
    assert load["offered_per_s"] > 0 and load["achieved_per_s"] > 0
    assert ("seed" in load) == (kind == "poisson")
    assert [s["name"] for s in header["named_series"]] == ["service_time", "send_lag"]
    assert header["middleware_config"]["invocation"] == "ami_callback"
    orb_options = header["middleware_config"]["orb_init_options"]
    assert ["maxClientThreadPoolSize", str(pool)] in orb_options
    if ["clientTransportRule", "* none"] not in orb_options:  # remote: connections
        assert ["maxGIOPConnectionPerServer", str(pool)] in orb_options
    # A response counts from the intended start: it holds the send lag and the service.
    for response, service, lag in zip(samples, named["service_time"], named["send_lag"],
                                      strict=True):
        assert response == service + lag


@pytest.mark.parametrize("kind", ["constant", "poisson"])
def test_open_loop_roundtrip_matches_every_reply_to_its_call(tmp_path, kind):
    # roundtrip carries the call number, which the ReplyHandler checks against the reply
    # it counts: a reply reported for another call would fail the run.
    header, samples, named = open_cell(tmp_path, f"{kind}:2000")
    assert_open_loop_result(header, samples, named, kind)


@pytest.mark.parametrize("operation, payload", [("ping", 0), ("octets", 256),
                                                ("octets_out", 256), ("octets_inout", 256),
                                                ("records", 256)])
def test_open_loop_carries_every_operation(tmp_path, operation, payload):
    header, samples, named = open_cell(tmp_path, "poisson:2000", operation, payload,
                                       "--option", "verify=1", "--option", "dispatch=dsi")
    assert_open_loop_result(header, samples, named, "poisson")


def test_open_loop_with_a_client_pool_matches_replies_by_their_echo(tmp_path):
    # Several calls in flight, their replies in any order: each completes the call whose
    # number it echoes, and the harness fails a number it did not send or one twice.
    header, samples, named = open_cell(tmp_path, "poisson:2000", "roundtrip", 0,
                                       "--option", "client_pool_size=4")
    assert_open_loop_result(header, samples, named, "poisson", pool=4)


@pytest.mark.parametrize("options, message", [
    (["client_pool_size=0"], "must be a whole number from 1 to 1000"),
    (["client_pool_size=4x"], "must be a whole number from 1 to 1000"),
    (["client_pool_size=2", "invocation=static"], "applies only to invocation=ami_callback"),
])
def test_client_pool_size_is_checked(tmp_path, options, message):
    flags = [flag for option in options for flag in ("--option", option)]
    OMNIORB.assert_usage_error(tmp_path, "collocated", *cell("roundtrip", "inproc"), *flags,
                               message=f"--option {options[0]}: {message}")


def test_a_client_pool_takes_roundtrip_only(tmp_path):
    OMNIORB.assert_usage_error(
        tmp_path, "collocated", *cell("ping", "inproc"), "--load", "constant:2000",
        "--option", "client_pool_size=2",
        message="--option client_pool_size=2 with --operation ping: replies of several calls")


def test_open_loop_collocated(tmp_path):
    header, samples, named = open_cell(tmp_path, "constant:2000", collocated=True)
    assert_open_loop_result(header, samples, named, "constant")


def test_describe_lists_open_loop_operations_and_one_way_options():
    d = OMNIORB.describe()
    assert set(d["open_loop"]) == set(d["operations"])
    assert d["one_way_options"] == {"delivery_time": ["1"], "invocation": ["oneway"]}


@pytest.mark.parametrize("invocation", ["static", "dii", "ami_poller", "oneway"])
def test_open_loop_needs_ami_callbacks(tmp_path, invocation):
    OMNIORB.assert_usage_error(
        tmp_path, "collocated", *cell("ping", "inproc"), "--load", "constant:2000",
        "--option", f"invocation={invocation}",
        message=f"the open loop of omniorb is AMI callbacks, not invocation={invocation}")


def test_open_loop_takes_no_delivery_times(tmp_path):
    OMNIORB.assert_usage_error(
        tmp_path, "collocated", *cell("ping", "inproc"), "--load", "constant:2000",
        "--option", "delivery_time=1",
        message="--option delivery_time=1 times closed-loop calls only")


@pytest.mark.parametrize("pool", [1, 4])
def test_a_server_that_stops_answering_costs_lost_calls_not_a_hung_client(tmp_path, pool):
    # Once the client keeps its first sample, the server is stopped (SIGSTOP): the AMI
    # calls in flight on the client's pool threads never return, and the ORB's destroy()
    # would wait for them for ever. The client must count them as lost, write its result
    # and exit.
    args = cell("roundtrip", "tcp")
    server = OMNIORB.server(tmp_path, *args)
    env, flag = measuring(tmp_path)
    output = tmp_path / "client.result"
    client = subprocess.Popen(
        [str(OMNIORB.program), "--role", "client", "--endpoint-file", str(server.endpoint),
         "--output", str(output), "--samples", "5000", "--warmup", "20", "--timeout", "1",
         "--load", "constant:1000", "--option", f"client_pool_size={pool}", *args],
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until_measuring(client, flag)
        os.kill(server.proc.pid, signal.SIGSTOP)
        _, err = client.communicate(timeout=HANG_S)
    finally:
        if client.poll() is None:
            client.kill()
        os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()
    assert client.returncode == 0, err
    header, samples = read_result(output)
    load = header["load"]
    assert load["lost"] > 0 and len(samples) == load["calls"] - load["lost"]
    assert "calls unanswered after 1 s" in err
