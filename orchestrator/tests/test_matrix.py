"""Matrix expansion: the full factorial, the skipped combinations and unknown names.

The driver descriptions here are what `--describe` returns, written out, so the
expansion can be checked without building anything.
"""

import dataclasses
from pathlib import Path

import pytest

from mwbench.drivers import DriverInfo
from mwbench.matrix import MatrixError, expand
from mwbench.spec import Spec

RAWTCP = DriverInfo(
    name="rawtcp", program=Path("rawtcp"), available=True, middleware="sockets",
    operations={"roundtrip": {"payload": False}, "octets": {"payload": True}},
    modes={"remote": ["tcp", "uds"]}, options={"verify": "check payloads"},
)
OMNIORB = DriverInfo(
    name="omniorb", program=Path("omniorb"), available=True, middleware="omniORB",
    operations={"roundtrip": {"payload": False}, "octets": {"payload": True}},
    modes={"remote": ["tcp", "unix"], "collocated": ["inproc"]},
    options={"threading": "server threading model"},
)
MISSING = DriverInfo(name="zmq", program=Path("zmq"), available=False, reason="not built")
DRIVERS = {d.name: d for d in (RAWTCP, OMNIORB, MISSING)}


def spec(**experiment) -> Spec:
    return Spec.model_validate({
        "suite": "t",
        "experiments": [{"name": "e", "operation": "roundtrip", **experiment}],
    })


def factors(matrix, *keys):
    """The levels of `keys` of each configuration, in the spec's order."""
    return [tuple(cell.factors()[k] for k in keys) for cell in matrix.configurations]


def test_quick_suite_shape():
    matrix = expand(spec(drivers=["rawtcp", "omniorb"], transports=["tcp", "uds", "unix"],
                         modes=["remote", "collocated"]), DRIVERS)
    assert factors(matrix, "driver", "mode", "transport") == [
        ("rawtcp", "remote", "tcp"), ("rawtcp", "remote", "uds"),
        ("omniorb", "remote", "tcp"), ("omniorb", "remote", "unix"),
        ("omniorb", "collocated", "inproc"),
    ]
    skipped = {(s.driver, s.what) for s in matrix.skipped}
    assert ("rawtcp", "mode collocated") in skipped
    assert ("rawtcp", "remote unix") in skipped
    assert ("omniorb", "remote uds") in skipped


def test_every_list_multiplies_the_matrix():
    matrix = expand(spec(drivers="omniorb", operation="octets", transports="tcp",
                         payload_bytes=[0, 64, 4096], placement=["same-cpu", "unpinned"],
                         options={"threading": ["per-connection", "pool"]}, launches=2),
                    DRIVERS)
    assert len(matrix.configurations) == 3 * 2 * 2
    assert len(matrix.cells) == 3 * 2 * 2 * 2
    assert [cell["options"] for cell in matrix.configurations[:4]] == [
        {"threading": "per-connection"}, {"threading": "pool"}] * 2
    # Randomised blocks: every configuration's first launch, then every second one.
    assert [c["launch"] for c in matrix.cells] == [1] * 12 + [2] * 12
    first = [c.factors() | {"launch": None} for c in matrix.cells[:12]]
    second = [c.factors() | {"launch": None} for c in matrix.cells[12:]]
    assert sorted(map(str, first)) == sorted(map(str, second))
    assert {c.launches for c in matrix.cells} == {2}


def test_payload_on_an_operation_without_one_is_skipped():
    matrix = expand(spec(drivers="rawtcp", transports="tcp", payload_bytes=[0, 8]), DRIVERS)
    assert factors(matrix, "payload_bytes") == [(0,)]
    assert any("carries no payload" in s.reason for s in matrix.skipped)


def test_collocated_cells_are_not_run_across_cpus():
    matrix = expand(spec(drivers="omniorb", modes="collocated",
                         placement=["same-cpu", "cross-cpu"]), DRIVERS)
    assert factors(matrix, "placement") == [("same-cpu",)]
    assert any("one thread" in s.reason for s in matrix.skipped)


def test_options_go_only_to_drivers_that_know_them():
    matrix = expand(spec(drivers=["rawtcp", "omniorb"], transports="tcp",
                         options={"threading": "pool"}), DRIVERS)
    assert {c["driver"]: c["options"] for c in matrix.configurations} == {
        "rawtcp": None, "omniorb": {"threading": "pool"}}


EVENTS = DriverInfo(
    name="ccmevents", program=Path("ccmevents"), available=True, middleware="mwccm",
    operations={"fanout": {"payload": True}}, modes={"remote": ["iiop", "udp"]},
    options={"delivery": "direct or channel"},
    option_transports={"delivery": {"direct": ["inproc", "iiop"]}})


def test_a_factor_given_as_an_option_is_skipped_over_a_transport_it_does_not_work_over():
    matrix = expand(spec(operation="fanout", drivers="ccmevents", transports=["iiop", "udp"],
                         delivery=["direct", "channel"]), {"ccmevents": EVENTS})
    assert [(c["transport"], c["delivery"]) for c in matrix.configurations] == [
        ("iiop", "direct"), ("iiop", "channel"), ("udp", "channel")]
    (skipped,) = matrix.skipped
    assert skipped.reason == "delivery=direct works over inproc, iiop only " \
        "(option_transports in its --describe)"


def test_an_option_value_is_skipped_over_a_transport_it_does_not_work_over():
    matrix = expand(spec(operation="fanout", drivers="ccmevents", transports=["iiop", "udp"],
                         options={"delivery": ["direct", "channel"]}), {"ccmevents": EVENTS})
    assert [(c["transport"], c["options"]["delivery"]) for c in matrix.configurations] == [
        ("iiop", "direct"), ("iiop", "channel"), ("udp", "channel")]
    (skipped,) = matrix.skipped
    assert "udp" in skipped.what
    assert skipped.reason == "delivery=direct works over inproc, iiop only " \
        "(option_transports in its --describe)"


CCM = DriverInfo(
    name="ccm", program=Path("ccm"), available=True, middleware="mwccm on omniORB",
    operations={"ping": {"payload": False}}, modes={"remote": ["tcp"]},
    options={"orb": "the ORB", "layer": "object or component", "scenario": "obj-obj, ..."},
    option_values={"orb": ["omniorb"], "layer": ["object", "component"],
                   "scenario": ["obj-obj", "comp-comp"]})
JAVA = DriverInfo(
    name="java", program=Path("java"), available=True, middleware="Java ORBs",
    operations={"ping": {"payload": False}}, modes={"remote": ["tcp"]},
    options={"orb": "the ORB", "layer": "object or component"},
    option_values={"orb": ["jacorb", "glassfish"]})


def test_a_value_a_driver_does_not_accept_is_skipped_so_drivers_cross_with_their_orbs():
    matrix = expand(spec(operation="ping", drivers=["ccm", "java"], orb=[
        "omniorb", "jacorb", "glassfish"], layer=["object", "component"]),
        {"ccm": CCM, "java": JAVA})
    assert [(c["driver"], c["orb"], c["layer"]) for c in matrix.configurations] == [
        ("ccm", "omniorb", "object"), ("ccm", "omniorb", "component"),
        ("java", "jacorb", "object"), ("java", "jacorb", "component"),
        ("java", "glassfish", "object"), ("java", "glassfish", "component")]
    reasons = {(s.driver, s.what, s.reason) for s in matrix.skipped}
    assert ("ccm", "tcp remote ping 0 B same-cpu hold jacorb orb object layer",
            "ccm takes orb omniorb only, not jacorb (option_values in its --describe)") in reasons
    assert ("java", "tcp remote ping 0 B same-cpu hold omniorb orb component layer",
            "java takes orb jacorb, glassfish only, not omniorb (option_values in its "
            "--describe)") in reasons
    assert len(matrix.skipped) == 6


def test_the_openccm_suite_crosses_each_orb_with_its_own_driver():
    from conftest import REPO
    from mwbench.spec import load_spec

    suite, _ = load_spec(REPO / "suites" / "openccm.yaml")
    java = dataclasses.replace(JAVA, options={**JAVA.options, "scenario": "obj-obj, ...",
                                              "glassfish_sockets": "blocking|nio"},
                               operations={"ping": {}, "roundtrip": {}})
    ccm = dataclasses.replace(CCM, operations={"ping": {}, "roundtrip": {}},
                              option_values={**CCM.option_values, "scenario": [
                                  "obj-obj", "obj-comp", "comp-obj", "comp-comp"]})
    rawtcp = dataclasses.replace(RAWTCP, operations={"ping": {}, "roundtrip": {}})
    matrix = expand(suite, {"ccm": ccm, "java": java, "rawtcp": rawtcp})
    found: dict[str, list] = {}
    for c in matrix.configurations:
        found.setdefault(c["experiment"], []).append((c["driver"], c["orb"], c["layer"]))
    assert found["method-call"] == [("java", orb, layer) for orb in ("jacorb", "glassfish")
                                    for layer in ("object", "component")]
    assert found["method-call-omniorb"] == [("ccm", "omniorb", "object"),
                                            ("ccm", "omniorb", "component"),
                                            *found["method-call"]]
    assert sorted(set(found["scenarios"])) == [
        ("ccm", "omniorb", None), ("java", "glassfish", None), ("java", "jacorb", None)]
    assert len(found["scenarios"]) == 3 * 4
    assert found["raw-socket"] == [("rawtcp", None, None)] * 2
    assert [c["options"] for c in matrix.configurations
            if c["experiment"] == "glassfish-sockets"] == [
        {"glassfish_sockets": "blocking"}, {"glassfish_sockets": "nio"}]
    assert {c.launches for c in matrix.configurations} == {7}
    assert {(c["placement"], c["idle_hold"]) for c in matrix.configurations} == {
        ("same-cpu", True)}


def test_an_option_value_a_driver_does_not_accept_is_skipped():
    matrix = expand(spec(operation="ping", drivers="ccm",
                         options={"scenario": ["obj-obj", "obj-comp"]}), {"ccm": CCM})
    assert [c["options"] for c in matrix.configurations] == [{"scenario": "obj-obj"}]
    (skipped,) = matrix.skipped
    assert skipped.reason == ("ccm takes scenario obj-obj, comp-comp only, not obj-comp "
                              "(option_values in its --describe)")


def test_unavailable_driver_is_skipped_with_its_reason():
    matrix = expand(spec(drivers=["zmq", "rawtcp"], transports="tcp"), DRIVERS)
    assert factors(matrix, "driver") == [("rawtcp",)]
    assert ("zmq", "all cells", "not built") in {
        (s.driver, s.what, s.reason) for s in matrix.skipped}


@pytest.mark.parametrize("experiment, message", [
    ({"drivers": "corba9"}, "unknown driver 'corba9'; known drivers: omniorb, rawtcp, zmq"),
    ({"drivers": "rawtcp", "operation": "teleport"},
     "unknown operation 'teleport'; the drivers of this experiment offer: octets, roundtrip"),
    ({"drivers": "rawtcp", "transports": "pigeon"}, "unknown transport 'pigeon'"),
    ({"drivers": "rawtcp", "options": {"threading": "pool"}}, "unknown option 'threading'"),
])
def test_unknown_names_are_errors_listing_the_known_ones(experiment, message):
    with pytest.raises(MatrixError) as error:
        expand(spec(**experiment), DRIVERS)
    assert message in str(error.value)


def test_experiments_repeat_as_often_as_each_asks():
    two = spec(drivers="rawtcp", transports="tcp", launches=2)
    two.experiments.append(two.experiments[0].model_copy(update={"name": "f", "launches": 1}))
    matrix = expand(two, DRIVERS, seed=3)
    launched = [(c["experiment"], c["launch"]) for c in matrix.cells]
    assert sorted(launched[:2]) == [("e", 1), ("f", 1)] and launched[2] == ("e", 2)


def test_the_order_of_the_launches_is_drawn_from_the_seed():
    wide = spec(drivers=["rawtcp", "omniorb"], transports=["tcp", "uds", "unix"],
                payload_bytes=0, launches=3)
    orders = {seed: [c.factors() for c in expand(wide, DRIVERS, seed=seed).cells]
              for seed in (1, 1, 2)}
    assert expand(wide, DRIVERS, seed=1).seed == 1
    assert orders[1] == [c.factors() for c in expand(wide, DRIVERS, seed=1).cells]
    assert orders[1] != orders[2]
    with_seed = Spec.model_validate({**wide.model_dump(exclude_none=True), "seed": 9})
    assert expand(with_seed, DRIVERS).seed == 9
    assert expand(wide, DRIVERS).seed is not None  # a new one, kept to be stored


BOUNDED = DriverInfo(
    name="rawtcp", program=Path("rawtcp"), available=True, middleware="sockets",
    operations={"ping": {"payload": False}}, modes={"remote": ["tcp"]},
    max_threads=4, max_servants=1,
)


def test_threads_and_servants_beyond_the_drivers_bounds_are_skipped_with_the_reason():
    matrix = expand(spec(drivers="rawtcp", operation="ping", servants=[1, 10],
                         threads=[1, 8]), {"rawtcp": BOUNDED})
    assert factors(matrix, "servants", "threads") == [(1, 1)]
    reasons = sorted(s.reason for s in matrix.skipped)
    assert reasons == [
        "rawtcp registers at most 1 servant(s) (max_servants in --describe); asked for 10",
        "rawtcp registers at most 1 servant(s) (max_servants in --describe); asked for 10",
        "rawtcp runs at most 4 client thread(s) (max_threads in --describe); asked for 8"]
    assert "servants 10 threads 8" in {s.what.split("same-cpu hold ")[1] for s in matrix.skipped}


def test_background_multiplies_the_matrix_and_is_a_factor():
    matrix = expand(spec(drivers="omniorb", transports="tcp", background=["none", "cpu:2"]),
                    DRIVERS)
    assert factors(matrix, "background") == [("none",), ("cpu:2",)]
    assert "background cpu:2" in matrix.configurations[1].label()


def test_crowded_cells_carry_a_note_with_the_count(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    matrix = expand(spec(drivers="omniorb", transports="tcp", modes=["remote", "collocated"],
                         threads=[1, 2], background=["none", "cpu:1"]), DRIVERS)
    notes = {(c["mode"], c["threads"], c["background"]): c.notes for c in matrix.configurations}
    assert notes[("remote", 1, "none")] == ()  # a client and its server thread take turns
    assert notes[("collocated", 2, "none")] == ()  # no server thread
    assert notes[("remote", 2, "none")] == (
        "crowded: 4 busy threads (2 client + 2 server + 0 background) exceed the machine's 2 "
        "CPUs; threads wait for a CPU as well as for the middleware",)
    assert notes[("remote", 1, "cpu:1")][0].startswith("crowded: 3 busy threads (1 client + "
                                                       "1 server + 1 background)")
    assert notes[("collocated", 2, "cpu:1")][0].startswith("crowded: 3 busy threads")


def test_role_and_memory_limit_reach_the_cells():
    matrix = expand(Spec.model_validate({
        "suite": "t", "defaults": {"memory_limit_mb": 256},
        "experiments": [{"name": "e", "operation": "roundtrip", "drivers": "omniorb",
                         "transports": "tcp", "role": "simple"}]}), DRIVERS)
    (cell,) = matrix.configurations
    assert cell.role == "simple" and cell.memory_limit_mb == 256
    assert "role" not in cell.factors() and cell.factors()["background"] == "none"


PUBSUB = DriverInfo(
    name="pubsub", program=Path("pubsub"), available=True, middleware="a pub/sub",
    operations={"roundtrip": {"payload": False}, "fanout": {"payload": True}},
    modes={"remote": ["udp"], "collocated": ["inproc"]}, options={}, max_subscribers=8,
)


def test_fanout_cells_cross_subscribers_with_where_they_run():
    matrix = expand(spec(drivers="pubsub", operation=["fanout", "roundtrip"],
                         modes=["remote", "collocated"], subscribers=[1, 4, 16],
                         subscriber_processes=["one", "each"]), {"pubsub": PUBSUB})
    assert factors(matrix, "operation", "mode", "subscribers", "subscriber_processes") == [
        ("fanout", "remote", 1, "one"),  # one subscriber: one process either way
        ("fanout", "remote", 4, "one"), ("fanout", "remote", 4, "each"),
        ("roundtrip", "remote", None, None),  # the factors belong to fanout alone
        ("fanout", "collocated", 1, None), ("fanout", "collocated", 4, None),
        ("roundtrip", "collocated", None, None),
    ]
    assert [c.subscriber_process_count for c in matrix.configurations[:3]] == [1, 1, 4]
    assert "subscribers 4 a process each" in matrix.configurations[2].label()
    assert {s.reason for s in matrix.skipped} == {
        "pubsub hosts at most 8 subscriber(s) (max_subscribers in --describe); asked for 16"}


def test_a_fanout_without_subscribers_has_one(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    matrix = expand(spec(drivers="pubsub", operation="fanout"), {"pubsub": PUBSUB})
    assert factors(matrix, "subscribers", "subscriber_processes") == [(1, "one")]
    assert matrix.configurations[0].notes == ()
    # Every event wakes all four subscribers at once: more than the machine's CPUs.
    matrix = expand(spec(drivers="pubsub", operation="fanout", subscribers=4),
                    {"pubsub": PUBSUB})
    assert matrix.configurations[0].notes[0].startswith(
        "crowded: 5 busy threads (1 client + 4 server + 0 background)")


DEPLOY = DriverInfo(
    name="deploy", program=Path("deploy"), available=True, middleware="mwccm deployment",
    operations={"assembly": {"payload": False}, "roundtrip": {"payload": False}},
    modes={"collocated": ["inproc"], "remote": ["tcp"]},
    options={"assembly": "static or dynamic", "plan": "a plan"}, max_threads=1,
)


def test_assembly_is_crossed_and_reaches_the_driver_as_its_option():
    from mwbench.cell_processes import driver_arguments

    matrix = expand(spec(drivers="deploy", operation="assembly", modes="collocated",
                         assembly=["static", "dynamic"], options={"plan": ["a", "b"]}),
                    {"deploy": DEPLOY})
    assert factors(matrix, "assembly", "options") == [
        ("static", {"plan": "a"}), ("static", {"plan": "b"}),
        ("dynamic", {"plan": "a"}), ("dynamic", {"plan": "b"})]
    assert "hold static assembly plan=a" in matrix.configurations[0].label()
    argv = driver_arguments(matrix.configurations[2], DEPLOY, "collocated", None, [],
                            Path("out"), [])
    options = [argv[i + 1] for i, flag in enumerate(argv) if flag == "--option"]
    assert options == ["plan=a", "assembly=dynamic"]


def test_assembly_is_skipped_with_the_reason_for_a_driver_without_the_option():
    matrix = expand(spec(drivers=["deploy", "omniorb"], modes="collocated",
                         assembly="static"), {**DRIVERS, "deploy": DEPLOY})
    assert factors(matrix, "driver", "assembly") == [("deploy", "static")]
    (skipped,) = matrix.skipped
    assert skipped.driver == "omniorb" and "static assembly" in skipped.what
    assert skipped.reason == ("omniorb has no option assembly (its --describe options: "
                              "threading), so it cannot be given assembly static")


def test_without_assembly_no_driver_is_given_the_option():
    from mwbench.cell_processes import driver_arguments

    matrix = expand(spec(drivers="omniorb", modes="collocated"), DRIVERS)
    (cell,) = matrix.configurations
    assert cell["assembly"] is None
    assert "--option" not in driver_arguments(cell, OMNIORB, "collocated", None, [],
                                              Path("out"), [])
