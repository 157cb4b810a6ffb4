"""`mwbench saturate`: what it refuses before anything runs, and, with a stand-in for a
cell's processes whose knee is known, the searches stepped in lockstep, every probe
stored as a cell of one run and every outcome in the table `saturation`, at the
percentile the user chose. The real search on rawtcp is test_saturate_integration.py's."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import write_spec
from mwbench import runner
from mwbench.cli import main
from mwbench.load_level import parse_load
from mwbench.stats import summarize
from mwbench.store import CellRecord, Store
from open_loop_drivers import described  # noqa: F401 - the fixture, by name

SPEC = """\
    suite: s
    experiments:
      - name: sweep
        drivers: [rawtcp, omniorb, deploy]
        operation: [roundtrip, assembly]
        warmup: 0
        samples: 200
        launches: 2
        load: [closed, "constant:100"]
      - name: components
        drivers: [deploy]
        operation: assembly
    """
CAPACITY = {"rawtcp": 3000.0, "omniorb": 1200.0}  # calls/s each keeps up with


def knee(cell, driver, launchers, stalled: float = 0.0):
    """A cell's record as a middleware with a knee at CAPACITY would leave it; on a machine
    that stalls, the `stalled` fraction of its calls wait 5 ms at every rate."""
    load = parse_load(cell["load"])
    capacity = CAPACITY[cell["driver"]]
    samples = np.full(cell.samples, 40_000 if load.rate_per_s <= capacity else 900_000,
                      dtype=np.int64)
    samples[:round(stalled * cell.samples)] = 5_000_000
    achieved = min(load.rate_per_s, capacity * 1.02)
    header = {"load": {"kind": load.kind, "rate_per_s": load.rate_per_s, "calls": cell.samples,
                       "offered_per_s": load.rate_per_s, "achieved_per_s": achieved,
                       "late_sends": 0, "outstanding_at_end": 0, "lost": 0}}
    return CellRecord(factors=cell.factors(), status="ok", batch_size=1, samples_ns=samples,
                      measurer_header=header,
                      stats=summarize(samples.astype(float), samples.size,
                                      int(samples.sum())).as_dict())


def saturate(tmp_path, *arguments):
    path = write_spec(tmp_path, SPEC)
    return CliRunner().invoke(main, ["saturate", str(path), "--db", str(tmp_path / "m.db"),
                                     *arguments], terminal_width=300, prog_name="mwbench")


@pytest.mark.usefixtures("described")
def test_the_search_of_each_configuration_is_stored_and_printed(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "run_cell", knee)
    result = saturate(tmp_path, "--experiment", "sweep", "--bound-us", "100", "--low", "500")
    assert result.exit_code == 0, result.output
    assert "Maximum sustainable constant rate: p99 under 100 µs" in result.output
    assert "p99 there µs" in result.output
    assert "deploy assembly: driver deploy has no open-loop load" not in result.output
    store = Store.open_existing(tmp_path / "m.db")
    (run,) = store.runs()
    assert run["suite"] == "s.saturate" and run["status"] == "finished"
    found = {row["configuration"].split('"driver": "')[1].split('"')[0]: row
             for row in store.saturations(run["id"])}
    assert set(found) == {"rawtcp", "omniorb"}
    for driver, capacity in CAPACITY.items():
        row = found[driver]
        assert row["kind"] == "constant" and row["bound_us"] == 100.0
        assert row["percentile"] == 99.0 and "p99_us" in row["probes"][0]
        assert capacity / 1.1 <= row["max_rate_per_s"] <= capacity
        assert row["probes"][0]["rate_per_s"] == 500.0
        assert f"{row['max_rate_per_s']:,.0f}" in result.output
    cells = store.cells(run["id"])
    probes = sum(len(row["probes"]) for row in found.values())
    assert len(cells) == 2 * probes  # two launches a probe
    assert {cell["load"].split(":")[0] for cell in cells} == {"constant"}
    assert "load" not in json.loads(found["rawtcp"]["configuration"])
    store.close()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--experiment", "swep", "--p99-bound-us", "100"],
     "mwbench saturate: --experiment swep: {spec} has no experiment 'swep' (did you mean "
     "'sweep'?) (its experiments: sweep, components)"),
    (["--experiment", "components", "--p99-bound-us", "100"],
     "mwbench saturate: {spec}: experiment 'components' is not open-loop-capable (no driver "
     "runs it in an open loop): deploy tcp remote assembly 0 B same-cpu hold poisson:1000 "
     "load: driver deploy has no open-loop load for operation assembly"),
    (["--experiment", "sweep", "--p99-bound-us", "100", "--low", "1"],
     "mwbench saturate: {spec}: at --low 1: experiment 'sweep': load constant:1 ("),
    (["--experiment", "sweep", "--p99-bound-us", "100", "--low", "100", "--high", "100"],
     "mwbench saturate: --high 100 is not above --low 100"),
    (["--experiment", "sweep", "--p99-bound-us", "nan"],
     "mwbench saturate: Invalid value for '--p99-bound-us': 'nan' is not a finite number"),
    (["--experiment", "sweep", "--p99-bound-us", "0"],
     "mwbench saturate: Invalid value for '--p99-bound-us': 0.0 is not in the range 0<x"),
    (["--experiment", "sweep", "--bound-us", "inf", "--percentile", "90"],
     "mwbench saturate: Invalid value for '--bound-us': 'inf' is not a finite number"),
    (["--experiment", "sweep", "--bound-us", "100", "--percentile", "95"],
     "mwbench saturate: Invalid value for '--percentile': '95' is not one of '50', '90', "
     "'99', '99.9'"),
    (["--experiment", "sweep", "--bound-us", "100", "--percentile", "p90"],
     "mwbench saturate: Invalid value for '--percentile': 'p90' is not one of"),
    (["--experiment", "sweep"],
     "mwbench saturate: give the bound: --bound-us MICROSECONDS (at --percentile, default "
     "99)"),
    (["--experiment", "sweep", "--percentile", "90"], "mwbench saturate: give the bound:"),
    (["--experiment", "sweep", "--bound-us", "100", "--p99-bound-us", "100"],
     "mwbench saturate: give --bound-us or --p99-bound-us, not both (--p99-bound-us B is "
     "--bound-us B --percentile 99)"),
    (["--experiment", "sweep", "--p99-bound-us", "100", "--percentile", "90"],
     "mwbench saturate: --p99-bound-us is a bound at p99, not at --percentile 90: give "
     "--bound-us with --percentile"),
    (["--experiment", "sweep", "--p99-bound-us", "100", "--low", "-5"],
     "mwbench saturate: Invalid value for '--low': -5.0 is not in the range 0<x"),
])
@pytest.mark.usefixtures("described")
def test_bad_input_exits_2_naming_it_before_anything_runs(tmp_path, monkeypatch, arguments,
                                                          message):
    monkeypatch.setattr(runner, "run_cell", lambda *_: pytest.fail("a cell ran"))
    result = saturate(tmp_path, *arguments)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(message.format(spec=tmp_path / "spec.yaml")), \
        result.output
    assert not (tmp_path / "m.db").exists()


@pytest.mark.usefixtures("described")
def test_an_experiment_of_two_kinds_of_load_is_refused(tmp_path):
    path = write_spec(tmp_path, SPEC.replace('"constant:100"', '"constant:100", poisson:100'))
    result = CliRunner().invoke(main, ["saturate", str(path), "--experiment", "sweep",
                                       "--p99-bound-us", "100"])
    assert result.exit_code == 2
    assert "its load levels are of constant and poisson loads" in result.output


@pytest.mark.usefixtures("described")
def test_on_a_machine_that_stalls_p90_finds_the_knee_that_p99_cannot(tmp_path, monkeypatch):
    """3% of the calls wait out the machine's stalls at every rate: no rate keeps its p99
    under 100 µs, and p90 finds each middleware's own knee."""
    monkeypatch.setattr(runner, "run_cell", lambda *a: knee(*a, stalled=0.03))
    at_p99 = saturate(tmp_path, "--experiment", "sweep", "--bound-us", "100", "--low", "500")
    assert at_p99.exit_code == 0, at_p99.output
    assert "not even 500/s is sustained: p99 5,000.0 µs, not under 100 µs" in at_p99.output
    at_p90 = saturate(tmp_path, "--experiment", "sweep", "--bound-us", "100", "--percentile",
                      "90", "--low", "500")
    assert at_p90.exit_code == 0, at_p90.output
    assert "Maximum sustainable constant rate: p90 under 100 µs" in at_p90.output
    assert "p90 there µs" in at_p90.output and "p90 900.0 µs, not under 100 µs" in \
        at_p90.output
    store = Store.open_existing(tmp_path / "m.db")
    first, second = store.runs()
    assert {row["percentile"] for row in store.saturations(first["id"])} == {99.0}
    found = {json.loads(row["configuration"])["driver"]: row
             for row in store.saturations(second["id"])}
    store.close()
    for driver, capacity in CAPACITY.items():
        assert found[driver]["percentile"] == 90.0 and found[driver]["bound_us"] == 100.0
        assert capacity / 1.1 <= found[driver]["max_rate_per_s"] <= capacity
        assert found[driver]["probes"][0]["p90_us"] == 40.0


@pytest.mark.usefixtures("described")
def test_the_old_spelling_is_a_bound_at_p99(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "run_cell", knee)
    result = saturate(tmp_path, "--experiment", "sweep", "--p99-bound-us", "100",
                      "--percentile", "99", "--low", "500", "--high", "1000")
    assert result.exit_code == 0, result.output
    assert "Maximum sustainable constant rate: p99 under 100 µs" in result.output
    store = Store.open_existing(tmp_path / "m.db")
    (run,) = store.runs()
    assert {(row["bound_us"], row["percentile"]) for row in store.saturations(run["id"])} \
        == {(100.0, 99.0)}
    store.close()


@pytest.mark.usefixtures("described")
def test_each_probe_sends_for_at_least_the_probe_seconds(tmp_path, monkeypatch):
    # 200 samples at 3,000/s would be a burst of 67 ms, which queues and buffers absorb.
    asked = []

    def recording(cell, *rest, **keywords):
        asked.append((parse_load(cell["load"]).rate_per_s, cell.samples))
        return knee(cell, *rest, **keywords)

    monkeypatch.setattr(runner, "run_cell", recording)
    result = saturate(tmp_path, "--experiment", "sweep", "--bound-us", "100", "--low", "50",
                      "--probe-seconds", "0.5")
    assert result.exit_code == 0, result.output
    assert {samples for rate, samples in asked if rate <= 400} == {200}
    assert all(samples == math.ceil(rate * 0.5) for rate, samples in asked if rate > 400)
    assert max(rate for rate, _ in asked) > 400
