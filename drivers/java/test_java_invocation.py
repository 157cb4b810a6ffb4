"""The Java driver's invocation modes and open loop (issue 28): each mode's round trip and
delivery on JacORB and the GlassFish ORB, oneway deliveries, the refused combinations, and
the open loop (--load) at a low rate. Real JVMs on both ends; no test judges a time, only
counts and the order of two times of one call (a delivery ends inside its round trip).

Run from the repository root after building:  python3 -m pytest drivers/java
"""

import pytest
from driver_processes import Driver, cell, read_result_with_series

JAVA = Driver("java")
pytestmark = JAVA.built_or_skipped()


def options(**pairs):
    return [arg for key, value in pairs.items() for arg in ("--option", f"{key}={value}")]


def remote(tmp_path, server_args, client_args, **run):
    """A server and its client to their ends; the client's header, samples and series."""
    server = JAVA.server(tmp_path, *server_args)
    client, output = JAVA.client(tmp_path, server, *client_args, **run)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    assert not (tmp_path / "endpoint.delivery").exists()  # the server removed its board
    return read_result_with_series(output)


def test_describe_offers_the_modes_and_the_open_loop():
    d = JAVA.describe()
    assert d["option_values"]["invocation"] == ["static", "dii", "ami_callback", "oneway"]
    assert d["option_values"]["dispatch"] == ["static", "dsi"]
    assert d["option_values"]["delivery"] == ["0", "1"]
    assert d["open_loop"] == ["roundtrip"]
    assert d["one_way_options"] == {"delivery": ["1"], "invocation": ["oneway"]}


MODES = [("jacorb", "static", "static"), ("jacorb", "dii", "dsi"),
         ("jacorb", "ami_callback", "static"), ("jacorb", "ami_callback", "dsi"),
         ("glassfish", "static", "dsi"), ("glassfish", "dii", "static")]


@pytest.mark.parametrize(("orb", "invocation", "dispatch"), MODES)
@pytest.mark.parametrize(("operation", "size"), [("roundtrip", 0), ("octets_inout", 4096)])
def test_each_mode_round_trip_and_delivery(tmp_path, orb, invocation, dispatch, operation,
                                           size):
    args = cell(operation, "tcp", size, *options(orb=orb, dispatch=dispatch, delivery=1,
                                                 verify=1))
    header, samples, named = remote(tmp_path, args, [*args, *options(invocation=invocation)])
    assert header["options"]["invocation"] == invocation
    assert len(samples) == len(named["delivery"]) == 200
    # The servant's entry falls inside the call that the sample times.
    assert all(0 < delivery <= sample
               for delivery, sample in zip(named["delivery"], samples, strict=True))


def test_a_glassfish_server_answers_a_jacorb_clients_ami_calls(tmp_path):
    """Server and client share their --options but the ORB's: AMI is the client's."""
    args = cell("roundtrip", "tcp", 0, *options(invocation="ami_callback", delivery=1))
    _, samples, named = remote(tmp_path, [*args, *options(orb="glassfish")],
                               [*args, *options(orb="jacorb")])
    assert len(samples) == len(named["delivery"]) == 200


@pytest.mark.parametrize(("orb", "invocation", "dispatch"),
                         [("jacorb", "ami_callback", "dsi"), ("glassfish", "dii", "static")])
def test_collocated_delivery(tmp_path, orb, invocation, dispatch):
    proc, output = JAVA.run("collocated", tmp_path, *cell("octets", "inproc", 1024),
                            *options(orb=orb, invocation=invocation, dispatch=dispatch,
                                     delivery=1, verify=1))
    assert proc.returncode == 0, proc.stderr
    _, samples, named = read_result_with_series(output)
    assert all(0 <= delivery <= sample
               for delivery, sample in zip(named["delivery"], samples, strict=True))


@pytest.mark.parametrize(("orb", "dispatch"), [("jacorb", "dsi"), ("glassfish", "static")])
def test_oneway_samples_are_deliveries_timed_by_the_driver(tmp_path, orb, dispatch):
    args = cell("ping", "tcp", 0, *options(orb=orb, invocation="oneway", dispatch=dispatch))
    header, samples, named = remote(tmp_path, args, args)
    assert header["timed_by"] == "driver"
    assert header["warmup"] == 20 and len(samples) == 200 and all(s > 0 for s in samples)
    assert named == {}


def test_a_server_without_delivery_fails_the_client(tmp_path):
    server = JAVA.server(tmp_path, *cell("ping", "tcp"))
    client, _ = JAVA.client(tmp_path, server, *cell("ping", "tcp"), *options(delivery=1))
    server.stop()
    assert client.returncode == 1
    assert "delivery board" in client.stderr and "endpoint.delivery" in client.stderr


@pytest.mark.parametrize(("role", "args", "message"), [
    ("client", [*cell("roundtrip", "tcp"), *options(orb="glassfish",
                                                    invocation="ami_callback")],
     "the GlassFish ORB has no AMI"),
    ("client", [*cell("octets_out", "tcp", 64), *options(invocation="oneway")],
     "invocation oneway cannot carry octets_out: a oneway call has no reply"),
    ("server", [*cell("octets_inout", "tcp", 64), *options(invocation="oneway")],
     "invocation oneway cannot carry octets_inout: a oneway call has no reply"),
    ("client", [*cell("roundtrip", "tcp"), *options(invocation="oneway")],
     "the oneway operation is ping_oneway"),
    ("client", [*cell("roundtrip", "tcp"), "--load", "constant:1000",
                *options(invocation="dii")], "the open loop sends through AMI callbacks"),
    ("client", [*cell("roundtrip", "tcp"), "--load", "constant:1000", *options(delivery=1)],
     "--option delivery=1 with --load constant:1000"),
    ("client", [*cell("ping", "tcp"), "--load", "poisson:1000"],
     "--load poisson:1000: java has no open-loop load for operation ping"),
    ("client", [*cell("roundtrip", "tcp"), "--load", "poisson:-3"],
     "--load poisson:-3: the rate must be a positive finite number of calls per second"),
    ("server", [*cell("roundtrip", "tcp"), "--load", "constant:1000"],
     "a server sends no load"),
    ("client", [*cell("roundtrip", "tcp"), "--threads", "2", *options(delivery=1)],
     "the board holds one entry at a time"),
    ("collocated", [*cell("roundtrip", "inproc"), *options(dispatch="dsi",
                                                           scenario="comp-comp")],
     "the invocation modes are the obj-obj scenario's"),
    ("collocated", [*cell("roundtrip", "inproc"), *options(orb="glassfish", dispatch="dsi")],
     "run it remote"),
])
def test_a_combination_the_driver_lacks_is_refused(tmp_path, role, args, message):
    JAVA.assert_usage_error(tmp_path, role, *args, message=message)


@pytest.mark.parametrize(("orb", "load"), [("jacorb", "constant:1000"),
                                           ("glassfish", "poisson:1000")])
def test_the_open_loop_at_a_low_rate(tmp_path, orb, load):
    args = cell("roundtrip", "tcp", 0, *options(orb=orb))
    header, samples, named = remote(tmp_path, args, [*args, "--load", load,
                                                     "--load-seed", "28"],
                                    samples=200, warmup=200)
    kind, rate = load.split(":")
    counts = header["load"]
    assert counts["kind"] == kind and counts["rate_per_s"] == float(rate)
    assert counts.get("seed") == (28 if kind == "poisson" else None)
    assert counts["calls"] == 200 and counts["lost"] == 0
    assert header["sample_count"] == len(samples) == counts["calls"] - counts["lost"]
    assert 0 <= counts["late_sends"] <= counts["calls"]
    assert counts["outstanding_at_end"] <= counts["calls"]
    assert counts["offered_per_s"] > 0 and counts["achieved_per_s"] > 0
    assert header["warmup"] == 200 and header["batch_size"] == 1
    # Each response runs from the intended start: the send's lag, then the service time.
    assert all(response == service + lag for response, service, lag in zip(
        samples, named["service_time"], named["send_lag"], strict=True))


def test_the_open_loop_collocated(tmp_path):
    proc, output = JAVA.run("collocated", tmp_path, *cell("roundtrip", "inproc"),
                            "--load", "constant:2000", samples=200, warmup=20)
    assert proc.returncode == 0, proc.stderr
    header, samples, named = read_result_with_series(output)
    assert header["load"]["calls"] == 200 and header["load"]["lost"] == 0
    assert len(named["service_time"]) == len(samples) == 200


OMNIORB = Driver("omniorb")
needs_omniorb = OMNIORB.built_or_skipped()


@needs_omniorb
@pytest.mark.parametrize("orb", ["jacorb", "glassfish"])
def test_delivery_across_the_two_drivers_boards(tmp_path, orb):
    """A Java client times deliveries on an omniORB server's board, and omniORB's client
    on a Java server's: one board format, one clock."""
    args = cell("octets", "tcp", 1024, *options(delivery=1, dispatch="dsi", verify=1))
    java = [*args, *options(orb=orb, invocation="dii")]
    for server, server_args, client, client_args in (
            (OMNIORB, args, JAVA, java), (JAVA, java, OMNIORB, args)):
        run = tmp_path / client.name
        run.mkdir()
        started = server.server(run, *server_args)
        done, output = client.client(run, started, *client_args)
        status, err = started.stop()
        assert done.returncode == 0, done.stderr
        assert status == 0, err
        _, samples, named = read_result_with_series(output)
        assert all(0 < delivery <= sample
                   for delivery, sample in zip(named["delivery"], samples, strict=True))


@needs_omniorb
def test_a_java_oneway_client_on_an_omniorb_server(tmp_path):
    """The Java client polls the C++ server's board. (The other way a C++ client would
    sleep on the board's futex, which a JVM cannot wake: each call would take --timeout.)"""
    args = cell("ping", "tcp", 0, *options(invocation="oneway"))
    server = OMNIORB.server(tmp_path, *args)
    client, output = JAVA.client(tmp_path, server, *args)
    assert server.stop()[0] == 0
    assert client.returncode == 0, client.stderr
    header, samples, _ = read_result_with_series(output)
    assert header["timed_by"] == "driver" and len(samples) == 200
