"""mwbench-driver-omniorb's invocation modes (static, DII, AMI callback and poller, oneway),
its dispatch modes (static skeletons, the DSI) and the delivery times of the server's
delivery board, with real server and client processes (and collocated). The open loop
(--load) is in test_omniorb_open_loop.py.

No test judges a time: a delivery is checked against its own call's round trip, which
contains it, and against zero.
"""

import pytest
from driver_processes import Driver, cell, read_result_with_series
from omniorb_processes import DRIVER

pytestmark = pytest.mark.skipif(not DRIVER.exists(), reason=f"{DRIVER} not built")

OMNIORB = Driver("omniorb")
TWO_WAY = ["static", "dii", "ami_callback", "ami_poller"]
DISPATCHES = ["static", "dsi"]
# ping, and a payload in both directions (what the DSI parses and replies the most of).
OPERATIONS = [("ping", 0), ("octets_inout", 512)]


def run_cell(tmp_path, args, collocated=False):
    """One cell with `args` on both ends; returns (header, samples, named series)."""
    if collocated:
        proc, output = OMNIORB.run("collocated", tmp_path, *args)
        assert proc.returncode == 0, proc.stderr
        return read_result_with_series(output)
    server = OMNIORB.server(tmp_path, *args)
    board = server.endpoint.parent / (server.endpoint.name + ".delivery")
    assert board.exists() == ("delivery_time=1" in args or "invocation=oneway" in args)
    proc, output = OMNIORB.client(tmp_path, server, *args)
    status, err = server.stop()
    assert proc.returncode == 0, proc.stderr
    assert status == 0, err
    assert not board.exists(), "the server removes its delivery board when it stops"
    return read_result_with_series(output)


def assert_deliveries_within_round_trips(header, samples, named):
    assert [s["name"] for s in header["named_series"]] == ["delivery"]
    deliveries = named["delivery"]
    assert len(deliveries) == header["sample_count"] == len(samples) == 200
    assert header["batch_size"] == 1
    for delivery, round_trip in zip(deliveries, samples, strict=True):
        assert 0 < delivery <= round_trip


@pytest.mark.parametrize("operation, payload", OPERATIONS)
@pytest.mark.parametrize("dispatch", DISPATCHES)
@pytest.mark.parametrize("invocation", TWO_WAY)
def test_two_way_invocation_times_delivery_within_round_trip(tmp_path, invocation, dispatch,
                                                             operation, payload):
    args = [*cell(operation, "tcp", payload), "--option", f"invocation={invocation}",
            "--option", f"dispatch={dispatch}", "--option", "delivery_time=1",
            "--option", "verify=1"]
    header, samples, named = run_cell(tmp_path, args)
    assert header["middleware_config"]["invocation"] == invocation
    assert header["middleware_config"]["dispatch"] == dispatch
    assert header["middleware_config"]["delivery_time"] is True
    assert "timed_by" not in header or header["timed_by"] != "driver"
    assert_deliveries_within_round_trips(header, samples, named)


@pytest.mark.parametrize("invocation", TWO_WAY)
def test_collocated_invocation_times_delivery_on_an_in_process_board(tmp_path, invocation):
    args = [*cell("octets_inout", "inproc", 512), "--option", f"invocation={invocation}",
            "--option", "dispatch=dsi", "--option", "delivery_time=1", "--option", "verify=1"]
    header, samples, named = run_cell(tmp_path, args, collocated=True)
    assert_deliveries_within_round_trips(header, samples, named)


@pytest.mark.parametrize("collocated", [False, True])
@pytest.mark.parametrize("dispatch", DISPATCHES)
def test_oneway_samples_are_deliveries_timed_by_the_driver(tmp_path, dispatch, collocated):
    args = [*cell("ping", "inproc" if collocated else "tcp"), "--option", "invocation=oneway",
            "--option", f"dispatch={dispatch}"]
    header, samples, named = run_cell(tmp_path, args, collocated)
    assert header["timed_by"] == "driver"
    assert header["middleware_config"]["invocation"] == "oneway"
    assert header["middleware_config"]["delivery_time"] is True
    assert named == {} and "named_series" not in header
    assert header["sample_count"] == len(samples) == 200
    assert all(s > 0 for s in samples)


def test_without_delivery_no_board_and_no_series(tmp_path):
    header, samples, named = run_cell(tmp_path, [*cell("ping", "tcp"), "--option",
                                                 "invocation=dii", "--option", "dispatch=dsi"])
    assert named == {} and header["middleware_config"]["delivery_time"] is False
    assert len(samples) == 200


def test_describe_lists_the_modes():
    d = OMNIORB.describe()
    assert d["option_values"]["invocation"] == [
        "static", "dii", "ami_callback", "ami_poller", "oneway"]
    assert d["option_values"]["dispatch"] == ["static", "dsi"]
    assert d["option_values"]["delivery_time"] == ["0", "1"]


@pytest.mark.parametrize("args, message", [
    (["--operation", "octets_out", "--payload-bytes", "64", "--option", "invocation=oneway"],
     "invocation=oneway cannot carry octets_out: a oneway call has no reply"),
    (["--operation", "octets_inout", "--payload-bytes", "64", "--option", "invocation=oneway"],
     "invocation=oneway cannot carry octets_inout: a oneway call has no reply"),
    (["--operation", "octets", "--payload-bytes", "64", "--option", "invocation=oneway"],
     "carries ping only (as ping_oneway), not octets"),
    (["--operation", "ping", "--threads", "2", "--option", "invocation=dii"],
     "--threads 2: --option invocation=dii measures on one thread"),
    (["--operation", "ping", "--threads", "2", "--option", "delivery_time=1"],
     "--threads 2: --option delivery_time=1 times one call at a time"),
    (["--operation", "ping", "--servants", "4", "--option", "target=random",
      "--option", "invocation=ami_poller"], "invocation=ami_poller calls servant 0 only"),
    (["--operation", "ping", "--option", "invocation=deferred"],
     "(allowed: static, dii, ami_callback, ami_poller, oneway)"),
    (["--operation", "ping", "--option", "dispatch=dii"], "(allowed: static, dsi)"),
])
def test_impossible_combinations_are_usage_errors(tmp_path, args, message):
    OMNIORB.assert_usage_error(tmp_path, "collocated", "--transport", "inproc", *args,
                               message=message)
