"""The factors of invocation modes and open-loop load: their levels in a spec, the
arguments a cell's processes get, the seed of a launch's schedule, and the figures of
its header (the store's migration to them is test_store.py's)."""

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import spec_refusal, write_spec
from mwbench.cell_processes import driver_arguments
from mwbench.drivers import DriverInfo
from mwbench.load_level import Load, parse_load
from mwbench.matrix import expand
from mwbench.open_load import load_figures, load_seed
from mwbench.spec import load_spec
from mwbench.store import CellRecord, Store

RAWTCP = DriverInfo(
    name="rawtcp", program=Path("rawtcp"), available=True, middleware="sockets",
    operations={"roundtrip": {"payload": False}}, modes={"remote": ["tcp"]},
    open_loop=("roundtrip",))
OMNIORB = DriverInfo(
    name="omniorb", program=Path("omniorb"), available=True, middleware="omniORB",
    operations={"roundtrip": {"payload": False}}, modes={"remote": ["tcp"]},
    options={"invocation": "how the client calls", "dispatch": "how the server dispatches"},
    option_values={"invocation": ["static", "dii", "ami_callback", "ami_poller", "oneway"],
                   "dispatch": ["static", "dsi"]},
    open_loop=("roundtrip",))


def spec_of(tmp_path: Path, experiment: str, driver: str = "rawtcp") -> Path:
    return write_spec(tmp_path, "suite: s\nexperiments:\n  - name: sweep\n"
                                f"    drivers: [{driver}]\n    operation: roundtrip\n"
                                + experiment)


@pytest.mark.parametrize(("level", "load"), [
    ("closed", Load("closed")), ("constant:1000", Load("constant", 1000.0)),
    ("poisson:2.5e4", Load("poisson", 25000.0)), ("poisson:.5", Load("poisson", 0.5))])
def test_a_load_level_reads_as_its_kind_and_rate(level, load):
    assert parse_load(level) == load
    assert parse_load(None) == Load("closed")


@pytest.mark.parametrize("rate", ["-3", "0", "inf", "nan", "1e400", "1_000", "", "fast"])
def test_a_rate_not_positive_and_finite_is_refused_naming_file_line_experiment_and_key(
        tmp_path, rate):
    path = spec_of(tmp_path, f'    load: [closed, "poisson:{rate}"]\n')
    message = spec_refusal(path)
    assert message.startswith(f"{path}:6: experiments[0].load[1]: load poisson:{rate}: the "
                              "rate must be a positive finite number of calls per second")
    assert "(experiment 'sweep')" in message


@pytest.mark.parametrize("level", ["open:100", "{poisson: 100}", "100", "Poisson:100"])
def test_a_load_that_is_no_level_is_refused_with_the_levels_there_are(tmp_path, level):
    message = spec_refusal(spec_of(tmp_path, f"    load: {level}\n"))
    assert ":6: experiments[0].load[0]: load" in message
    assert "use closed, constant:RATE or poisson:RATE" in message


def test_invocation_and_dispatch_take_their_modes_only(tmp_path):
    message = spec_refusal(spec_of(tmp_path, "    invocation: [static, dynamic]\n"))
    assert ":6: experiments[0].invocation[1]:" in message and "'oneway'" in message
    spec, _ = load_spec(spec_of(tmp_path, "    invocation: [static, dii, oneway]\n"
                                          "    dispatch: dsi\n    load: [closed, poisson:10]\n"))
    assert spec.experiments[0].load == ["closed", "poisson:10"]


def test_the_levels_are_crossed_and_labelled(tmp_path):
    spec, _ = load_spec(spec_of(tmp_path, "    invocation: [ami_callback, dii]\n"
                                          "    load: [closed, constant:1e3]\n"
                                          "    samples: 10\n    warmup: 0\n", "omniorb"))
    matrix = expand(spec, {"omniorb": OMNIORB})
    assert [(c["invocation"], c["load"]) for c in matrix.configurations] == [
        ("ami_callback", "closed"), ("ami_callback", "constant:1e3"), ("dii", "closed")]
    assert "ami_callback invocation constant:1e3 load" in matrix.configurations[1].label()
    assert [skipped.what.endswith("dii invocation constant:1e3 load")
            for skipped in matrix.skipped] == [True]


def cell_of(tmp_path: Path, load: str, launch: int = 1):
    spec, _ = load_spec(spec_of(tmp_path, f"    load: {load}\n    samples: 10\n"
                                          "    warmup: 0\n    launches: 2\n"))
    matrix = expand(spec, {"rawtcp": RAWTCP}, seed=1)
    return next(cell for cell in matrix.cells if cell["launch"] == launch)


def arguments(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, given in enumerate(argv) if given == flag]


def test_the_load_and_its_seed_go_to_the_measuring_process_only(tmp_path):
    cell = cell_of(tmp_path, "poisson:1000")
    client = driver_arguments(cell, RAWTCP, "client", None, [Path("e")], Path("o"), [])
    server = driver_arguments(cell, RAWTCP, "server", None, [Path("e")], Path("o"), [])
    assert arguments(client, "--load") == ["poisson:1000"]
    assert arguments(client, "--load-seed") == [str(load_seed(cell.levels))]
    assert "--load" not in server and "--load-seed" not in server
    collocated = driver_arguments(cell, RAWTCP, "collocated", None, [], Path("o"), [])
    assert arguments(collocated, "--load") == ["poisson:1000"]


def test_a_closed_loop_gets_neither_argument(tmp_path):
    for load in ("closed", "null"):
        cell = cell_of(tmp_path, load)
        argv = driver_arguments(cell, RAWTCP, "client", None, [Path("e")], Path("o"), [])
        assert "--load" not in argv and "--load-seed" not in argv
        assert load_seed(cell.levels) is None


def test_the_seed_is_the_configurations_and_the_launchs_in_every_run(tmp_path):
    first = cell_of(tmp_path, "poisson:1000", launch=1)
    seed = load_seed(first.levels)
    assert 0 <= seed < 2**64
    assert load_seed(cell_of(tmp_path, "poisson:1000", launch=1).levels) == seed
    assert load_seed(cell_of(tmp_path, "poisson:1000", launch=2).levels) != seed
    assert load_seed(cell_of(tmp_path, "poisson:2000", launch=1).levels) != seed
    # In a fresh interpreter (hash randomisation aside), the same seed.
    code = ("from mwbench.open_load import load_seed; "
            f"print(load_seed({first.levels!r}))")
    again = subprocess.run([sys.executable, "-c", code],
                           capture_output=True, text=True, check=True)
    assert int(again.stdout) == seed


HEADER = {"load": {"kind": "poisson", "rate_per_s": 1000.0, "seed": 42, "calls": 200,
                   "offered_per_s": 990.5, "achieved_per_s": 985.0, "late_sends": 3,
                   "late_threshold_ns": 1000000, "max_send_lag_ns": 2000000,
                   "outstanding_at_end": 1, "lost": 0}}


def test_the_load_figures_come_from_the_stored_measurer_header(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    run_id = store.begin_run("s", "p", "t", {}, "v")
    levels = {"experiment": "e", "driver": "rawtcp", "operation": "roundtrip", "launch": 1,
              "load": "poisson:1000"}
    store.add_cell(run_id, CellRecord(factors=levels, status="ok", measurer_header=HEADER))
    (cell,) = store.cells(run_id)
    store.close()
    figures = load_figures(cell["measurer_header"])
    assert (figures.offered_per_s, figures.achieved_per_s, figures.late_sends,
            figures.outstanding_at_end, figures.lost) == (990.5, 985.0, 3, 1, 0)
    assert figures.seed == 42 and figures.achieved_fraction == pytest.approx(985.0 / 990.5)
    assert load_figures({"operation": "roundtrip"}) is None and load_figures(None) is None


def test_an_open_loop_result_must_carry_the_load_it_was_asked_for():
    from mwbench.open_load import judged
    from mwbench.resultfile import ResultFileError

    assert judged("closed", {}) == [] and judged(None, HEADER) == []
    assert judged("poisson:1000", HEADER) == []
    with pytest.raises(ResultFileError, match="the result header has no `load` figures"):
        judged("poisson:1000", {})
    with pytest.raises(ResultFileError, match="says load poisson:1000; the cell asked for "
                                              "constant:1000"):
        judged("constant:1000", HEADER)
    behind = {"load": {**HEADER["load"], "achieved_per_s": 500.0, "lost": 7}}
    assert judged("poisson:1e3", behind) == [
        "7 of the 200 calls sent were never answered (lost): their samples are left out",
        "achieved 500 calls/s of the 990 offered: the middleware did not keep up"]
