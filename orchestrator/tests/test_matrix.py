"""Matrix expansion: the full factorial, the skipped combinations and unknown names.

The driver descriptions here are what `--describe` returns, written out, so the
expansion can be checked without building anything.
"""

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
    return [tuple(cell.factors()[k] for k in keys) for cell in matrix.cells]


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
                         options={"threading": ["per-connection", "pool"]}, repetitions=2),
                    DRIVERS)
    assert len(matrix.cells) == 3 * 2 * 2 * 2
    assert {cell.options for cell in matrix.cells} == {
        (("threading", "per-connection"),), (("threading", "pool"),)}
    # Repetitions are the outer loop: the whole matrix once, then again.
    assert [c.repetition for c in matrix.cells] == [1] * 12 + [2] * 12
    assert matrix.cells[0].factors() | {"repetition": 2} == matrix.cells[12].factors()


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
    assert {c.driver: c.options for c in matrix.cells} == {
        "rawtcp": (), "omniorb": (("threading", "pool"),)}


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
    two = spec(drivers="rawtcp", transports="tcp", repetitions=2)
    two.experiments.append(two.experiments[0].model_copy(update={"name": "f", "repetitions": 1}))
    matrix = expand(two, DRIVERS)
    assert [(c.experiment, c.repetition) for c in matrix.cells] == [
        ("e", 1), ("f", 1), ("e", 2)]
