"""Integration tests of mwbench-driver-ccm: real server and client processes.

Run from the repository root after building:  python3 -m pytest drivers/ccm
The drivers are looked up in $MWBENCH_BUILD_DIR (default <repo>/build). Every
cell runs with verify=1, so the server's Receiver (or plain servant) counts
what it saw and checks every payload and event; nothing here times anything.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    assert_open_loop,
    read_result,
    read_result_with_series,
)

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = BUILD / "drivers" / "ccm" / "mwbench-driver-ccm"
PROBES = BUILD / "drivers" / "ccm" / "mwbench-driver-ccm-probes"
QUICK = ["--samples", "200", "--warmup", "20"]
SCENARIOS = ["obj-obj", "obj-comp", "comp-obj", "comp-comp"]
INVOCATIONS = ["static", "dii", "ami_callback", "ami_poller"]

pytestmark = Driver("ccm").built_or_skipped()


def run_pair(tmp_path, args, driver=DRIVER):
    """Server and client with the same arguments and verify=1; returns the client's
    header and samples and the server's standard error."""
    args = [*args, "--transport", "tcp", "--option", "verify=1"]
    server = DriverServer(driver, tmp_path, args)
    try:
        client = subprocess.run(
            [driver, "--role", "client", "--endpoint-file", server.endpoint,
             "--output", tmp_path / "client.result", "--timeout", "5", *args, *QUICK],
            capture_output=True, text=True, timeout=60)
    finally:
        status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples = read_result(tmp_path / "client.result")
    return header, samples, err


def collocated(args, driver=DRIVER, output=None):
    extra = ["--output", output] if output else []
    return subprocess.run(
        [driver, "--role", "collocated", "--transport", "inproc", "--option", "verify=1",
         *QUICK, *extra, *args], capture_output=True, text=True, timeout=60)


def test_describe():
    d = json.loads(subprocess.run([DRIVER, "--describe"], capture_output=True, text=True,
                                  check=True).stdout)
    assert d["driver"] == "ccm"
    assert d["modes"] == {"remote": ["tcp"], "collocated": ["inproc"]}
    assert set(d["options"]) == {"scenario", "layer", "orb", "threading", "verify",
                                 "invocation", "dispatch", "delivery_time", "client_pool_size"}
    assert "collocated: obj-obj and comp-comp only" in d["options"]["scenario"].lower()
    assert d["option_values"] == {"scenario": SCENARIOS, "layer": ["object", "component"],
                                  "orb": ["omniorb"], "invocation": INVOCATIONS + ["oneway"],
                                  "dispatch": ["static"], "delivery_time": ["0", "1"]}
    assert d["one_way_options"] == {"delivery_time": ["1"], "invocation": ["oneway"]}
    assert d["open_loop"] == ["roundtrip", "ping", "octets", "octets_inout"]
    assert d["operations"]["octets"] == {"payload": True}
    assert d["operations"]["event_value"] == {"payload": True}
    assert d["max_threads"] == 1 and d["max_servants"] == 1


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_remote_roundtrip_reaches_the_server(tmp_path, scenario):
    header, samples, err = run_pair(tmp_path, [
        "--operation", "roundtrip", "--option", f"scenario={scenario}"])
    assert header["sample_count"] == 200 and all(s > 0 for s in samples)
    assert header["middleware_config"]["scenario"] == scenario
    # warm-up + samples + the first call (a ping)
    if scenario.endswith("comp"):
        assert "verify: 221 calls, 0 value events, 0 struct events, 0 bad" in err
    else:
        assert "verify: 1 servants, 221 calls" in err


@pytest.mark.parametrize("layer, scenario", [("object", "obj-obj"),
                                             ("component", "comp-comp")])
def test_the_layer_is_the_homogeneous_scenario(tmp_path, layer, scenario):
    # The OpenCCM study's method call: a client that uses ping() calling a server that
    # provides it, both objects or both components; orb=omniorb is the one ORB here.
    header, _, err = run_pair(tmp_path, ["--operation", "ping", "--option", f"layer={layer}",
                                         "--option", "orb=omniorb"])
    assert header["middleware_config"]["scenario"] == scenario
    assert "221 calls" in err
    done = collocated(["--operation", "ping", "--option", f"layer={layer}",
                       "--option", f"scenario={scenario}"])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("scenario", ["obj-obj", "comp-comp"])
def test_collocated_roundtrip(scenario):
    done = collocated(["--operation", "roundtrip", "--option", f"scenario={scenario}"])
    assert done.returncode == 0, done.stderr
    assert re.search(r"verify: (1 servants, )?221 calls", done.stderr), done.stderr


@pytest.mark.parametrize("scenario", ["obj-comp", "comp-obj"])
def test_collocated_mixed_scenarios_are_refused(scenario):
    done = collocated(["--operation", "roundtrip", "--option", f"scenario={scenario}"])
    assert done.returncode == 2
    assert "collocated runs obj-obj and comp-comp only" in done.stderr


@pytest.mark.parametrize("size", [4, 4096, 65536])
def test_octets_comp_comp_arrive_intact(tmp_path, size):
    _, _, err = run_pair(tmp_path, ["--operation", "octets", "--payload-bytes", str(size),
                                    "--option", "scenario=comp-comp"])
    assert "221 calls" in err and " 0 bad" in err


@pytest.mark.parametrize("scenario", ["obj-obj", "obj-comp"])
@pytest.mark.parametrize("size", [0, 1024, 65536])
def test_octets_inout_checked_both_ways(tmp_path, scenario, size):
    # verify=1: the server checks the request, the client the servant's reply bytes.
    header, _, err = run_pair(tmp_path, ["--operation", "octets_inout", "--payload-bytes",
                                         str(size), "--option", f"scenario={scenario}"])
    assert header["sample_count"] == 200
    assert "221 calls" in err and (" 0 bad" in err or "bad" not in err), err


def test_octets_collocated_comp_comp():
    done = collocated(["--operation", "octets", "--payload-bytes", "1000",
                       "--option", "scenario=comp-comp"])
    assert done.returncode == 0, done.stderr
    assert " 0 bad" in done.stderr


@pytest.mark.parametrize("kind", ["value", "struct"])
def test_events_arrive_intact_and_in_order(tmp_path, kind):
    _, _, err = run_pair(tmp_path, ["--operation", f"event_{kind}", "--payload-bytes", "64",
                                    "--option", "scenario=comp-comp"])
    assert f"220 {kind} events" in err and " 0 bad" in err


@pytest.mark.parametrize("kind", ["value", "struct"])
def test_collocated_events(kind):
    done = collocated(["--operation", f"event_{kind}", "--payload-bytes", "16",
                       "--option", "scenario=comp-comp"])
    assert done.returncode == 0, done.stderr
    assert f"220 {kind} events" in done.stderr


@pytest.mark.parametrize("operation", ["lookup_home_naming", "lookup_home_file",
                                       "provide_facet", "find_component"])
def test_lookups_find_the_servers_object(tmp_path, operation):
    # verify=1: each look-up's result is compared with the reference published.
    header, samples, _ = run_pair(tmp_path, ["--operation", operation,
                                             "--option", "scenario=obj-comp"])
    assert header["sample_count"] == 200 and header["operation"] == operation
    assert not list(tmp_path.glob("*.home.ior")), "the server left its home's IOR file"


def test_naming_service_does_not_outlive_the_server(tmp_path):
    server = DriverServer(DRIVER, tmp_path, ["--operation", "lookup_home_naming",
                                             "--transport", "tcp"])
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
    assert len(children) == 1
    status, err = server.stop()
    assert status == 0, err
    assert not Path(f"/proc/{children[0]}").exists()


@pytest.mark.parametrize("args, message", [
    (["--option", "scenario=comp-comps"],
     "--option scenario=comp-comps: not a value ccm accepts (allowed: obj-obj, obj-comp, "
     "comp-obj, comp-comp)"),
    (["--option", "layer=object", "--option", "scenario=comp-obj"],
     "--option layer=object with --option scenario=comp-obj: layer object is scenario obj-obj"),
    (["--option", "layer=objects"], "(allowed: object, component)"),
    (["--option", "orb=jacorb"], "--option orb=jacorb: not a value ccm accepts (allowed: omniorb)"),
    (["--option", "threading=many"], "allowed values: per-connection, pool"),
    (["--operation", "event_value", "--option", "scenario=obj-comp"], "need scenario=comp-comp"),
    (["--operation", "provide_facet", "--option", "scenario=comp-obj"], "need scenario=obj-comp"),
    (["--operation", "octets_inout", "--payload-bytes", "8", "--option", "scenario=comp-comp"],
     "the Caller component calls roundtrip, ping and octets only"),
    (["--operation", "octets_inout", "--payload-bytes", "8", "--option", "scenario=obj-comp",
      "--option", "invocation=oneway"],
     "--option invocation=oneway cannot carry octets_inout: a oneway call has no reply"),
    (["--operation", "event_value", "--option", "invocation=dii"],
     "--option invocation=dii with --operation event_value: invocations are of the facet's "
     "calls"),
    (["--operation", "find_component", "--option", "scenario=obj-comp",
      "--option", "delivery_time=1"],
     "--option delivery_time=1 with --operation find_component: a look-up reaches no executor"),
    (["--option", "dispatch=dsi"],
     "--option dispatch=dsi: not a value ccm accepts (allowed: static)"),
    (["--option", "invocation=dii", "--load", "constant:1000"],
     "--load constant:1000: the open loop of omniorb is AMI callbacks, not invocation=dii"),
    (["--option", "delivery_time=1", "--load", "poisson:1000"],
     "--load poisson:1000: --option delivery_time=1 times closed-loop calls only"),
    (["--operation", "event_value", "--load", "constant:1000"],
     "--load constant:1000: ccm has no open-loop load for operation event_value"),
])
def test_bad_options_are_usage_errors(tmp_path, args, message):
    base = ["--role", "client", "--transport", "tcp", "--endpoint-file", tmp_path / "none"]
    if "--operation" not in args:
        base += ["--operation", "roundtrip"]
    done = subprocess.run([DRIVER, *base, *args], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr


def test_normal_build_has_no_probe_code():
    symbols = subprocess.run(["nm", "-C", DRIVER], capture_output=True, text=True,
                             check=True).stdout
    assert "probe_hook" not in symbols and "ccm_driver::probe(" not in symbols


@pytest.mark.skipif(not PROBES.exists(), reason=f"{PROBES} not built")
def test_probe_build_records_every_point(tmp_path):
    probes = tmp_path / "probes.txt"
    done = collocated(["--operation", "roundtrip", "--option", "scenario=comp-comp",
                       "--option", f"probe_file={probes}"], driver=PROBES)
    assert done.returncode == 0, done.stderr
    points = [int(line.split()[1]) for line in probes.read_text().splitlines()
              if not line.startswith("#")]
    # 220 measured and warm-up calls with 7 points each, and the first ping's 3 glue points
    assert points[-7:] == list(range(7))
    assert len(points) == 220 * 7 + 3


def client_series(tmp_path):
    return read_result_with_series(tmp_path / "client.result")


def assert_deliveries(header, samples, named):
    # A call's delivery (its send to the executor's entry) is part of its round trip.
    assert header["sample_count"] == 200 and list(named) == ["delivery"]
    assert all(0 < delivery <= sample
               for delivery, sample in zip(named["delivery"], samples, strict=True))


@pytest.mark.parametrize("invocation", INVOCATIONS)
@pytest.mark.parametrize("scenario", ["obj-comp", "comp-comp", "obj-obj"])
def test_each_invocation_times_round_trip_and_delivery(tmp_path, scenario, invocation):
    # A Caller calls by its receptacle's forwarder (static) or by the reference the
    # receptacle holds; the Receiver's executor (or the plain servant) stamps its entry.
    header, _, err = run_pair(tmp_path, ["--operation", "roundtrip", "--option",
                                         f"scenario={scenario}", "--option",
                                         f"invocation={invocation}", "--option", "delivery_time=1"])
    assert header["middleware_config"]["invocation"] == invocation
    assert_deliveries(*client_series(tmp_path))
    assert re.search(r"verify: (1 servants, )?221 calls", err), err
    assert not list(tmp_path.glob("*.delivery")), "the server left its delivery board"


@pytest.mark.parametrize("invocation", INVOCATIONS)
def test_collocated_invocations_time_delivery(tmp_path, invocation):
    output = tmp_path / "collocated.result"
    done = collocated(["--operation", "octets", "--payload-bytes", "512", "--option",
                       "scenario=comp-comp", "--option", f"invocation={invocation}",
                       "--option", "delivery_time=1"], output=output)
    assert done.returncode == 0, done.stderr
    assert_deliveries(*read_result_with_series(output))
    assert "221 calls" in done.stderr and " 0 bad" in done.stderr


@pytest.mark.parametrize("kind", ["value", "struct"])
def test_event_delivery_is_timed_at_the_sink(tmp_path, kind):
    run_pair(tmp_path, ["--operation", f"event_{kind}", "--payload-bytes", "64",
                        "--option", "delivery_time=1"])
    assert_deliveries(*client_series(tmp_path))


@pytest.mark.parametrize("scenario", ["obj-comp", "comp-comp"])
def test_oneway_is_timed_by_its_delivery(tmp_path, scenario):
    header, samples, err = run_pair(tmp_path, ["--operation", "ping", "--option",
                                               f"scenario={scenario}", "--option",
                                               "invocation=oneway"])
    assert header["timed_by"] == "driver" and "named_series" not in header
    assert header["sample_count"] == 200 and all(s > 0 for s in samples)
    assert "221 calls" in err  # the first ping, then every oneway call entered the executor


def test_oneway_collocated(tmp_path):
    output = tmp_path / "collocated.result"
    done = collocated(["--operation", "ping", "--option", "scenario=comp-comp",
                       "--option", "invocation=oneway"], output=output)
    assert done.returncode == 0, done.stderr
    header, _ = read_result(output)
    assert header["timed_by"] == "driver" and header["sample_count"] == 200


@pytest.mark.parametrize("load, pool", [("constant:2000", 1), ("poisson:2000", 1),
                                        ("poisson:2000", 4)])
@pytest.mark.parametrize("scenario", ["obj-comp", "comp-comp"])
def test_open_loop_by_ami_callbacks(tmp_path, scenario, load, pool):
    # The server gets no --load (a server refuses it): only the client's arguments. With a
    # pool of several threads, replies are matched to calls by the number they echo.
    args = ["--operation", "roundtrip", "--option", f"scenario={scenario}",
            "--transport", "tcp", "--option", "verify=1",
            "--option", f"client_pool_size={pool}"]
    server = DriverServer(DRIVER, tmp_path, args)
    try:
        client = subprocess.run(
            [DRIVER, "--role", "client", "--endpoint-file", server.endpoint, "--output",
             tmp_path / "client.result", "--load", load, *args, *QUICK],
            capture_output=True, text=True, timeout=HANG_S)
    finally:
        status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples, named = client_series(tmp_path)
    assert_open_loop(header, samples, named, load=load)
    assert header["middleware_config"]["invocation"] == "ami_callback"
    assert ["maxClientThreadPoolSize", str(pool)] in header["middleware_config"]["orb_init_options"]
    assert "221 calls" in err


def test_open_loop_collocated(tmp_path):
    output = tmp_path / "collocated.result"
    done = collocated(["--operation", "ping", "--option", "scenario=comp-comp",
                       "--load", "constant:2000"], output=output)
    assert done.returncode == 0, done.stderr
    assert_open_loop(*read_result_with_series(output))
