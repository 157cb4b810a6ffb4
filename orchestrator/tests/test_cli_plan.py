"""`mwbench plan`, `run --budget` and `run --seed`: what a run will do, a time budget spent
from the variance measured here, and an order that repeats.

The plans are checked against calibrations written into the store, so their
launches and samples are known exactly; the runs measure real rawtcp processes
and check only what they stored, never how long anything took.
"""

import json
import re
import subprocess
import textwrap

import pytest
from click.testing import CliRunner

from conftest import driver_built, mwbench_exe
from mwbench.cli import main
from mwbench.launches.calibration import configuration_key
from mwbench.launches.chooser import best_samples
from mwbench.launches.variance import Components
from mwbench.runner import plan, this_machine
from mwbench.store import Store

SPEC = """\
suite: planned
defaults: {warmup: 100, samples: 500, launches: 3}
experiments:
  - {name: ping, operation: roundtrip, drivers: rawtcp, transports: [tcp, uds]}
"""
MEASURED = Components(between=0.02**2, within=0.5, launch_cost_s=0.05, sample_cost_s=10e-6,
                      launches=8, samples=1000)


@pytest.fixture
def spec(tmp_path):
    if not driver_built("rawtcp"):
        pytest.fail("driver rawtcp is not built: run `make test`, which builds it first")
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC)
    return path


def calibrated(spec, db, components=MEASURED):
    """A store holding `components` for every configuration of `spec` on this machine."""
    *_, matrix, _ = plan(spec)
    store = Store.create_or_open(db)
    for cell in matrix.configurations:
        store.save_calibration(this_machine(), configuration_key(cell.factors()), {
            "between_launches": components.between, "within_launch": components.within,
            "launch_cost_s": components.launch_cost_s,
            "sample_cost_s": components.sample_cost_s, "launches": components.launches,
            "samples": components.samples}, run_id=None)
    store.close()


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_plan_shows_the_specs_launches_and_runs_nothing(spec, tmp_path):
    result = invoke("plan", spec, "--db", tmp_path / "none.db", "--seed", 7)
    assert result.exit_code == 0, result.output
    assert result.output.count("not measured: assumed") == 2
    assert "2 configurations, 6 launches in randomised blocks (seed 7)" in result.output
    assert not (tmp_path / "none.db").exists()


def test_a_budget_is_spent_by_kalibera_and_jones_from_the_stored_variance(spec, tmp_path):
    db = tmp_path / "m.db"
    calibrated(spec, db)
    result = invoke("plan", spec, "--db", db, "--budget", "30s")
    assert result.exit_code == 0, result.output
    samples = best_samples(MEASURED)  # sqrt(0.05 / 1e-5 * 0.5 / 0.0004) = 2,500
    launches = int(30 // (2 * MEASURED.launch_s(samples)))
    rows = re.findall(rf"│\s+{launches}\s+│\s+{samples:,}\s+│", result.output)
    assert len(rows) == 2
    assert result.output.count("measured 20") == 2
    assert f"{2 * launches} launches" in result.output


@pytest.mark.parametrize("args, message", [
    (["--budget", "0.1s"], "--budget 0.1 s is shorter than 2 launches of every cell"),
    (["--budget", "soon"], "Invalid value for '--budget': 'soon' is not a duration"),
    (["--budget", "0"], "a budget is more than 0 s"),
])
def test_a_budget_that_cannot_fit_is_refused_before_anything_runs(spec, tmp_path, args, message):
    db = tmp_path / "m.db"
    calibrated(spec, db)
    for verb in ("plan", "run"):
        result = invoke(verb, spec, "--db", db, *args)
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())
    assert Store.open_existing(db).runs() == []


def test_a_specs_budget_too_short_is_named_with_its_line(spec, tmp_path):
    spec.write_text(SPEC.replace("suite: planned\n", "suite: planned\nbudget: 100ms\n"))
    db = tmp_path / "m.db"
    calibrated(spec, db)
    result = invoke("run", spec, "--db", db)
    assert result.exit_code == 2
    assert f"{spec}:2: budget: 0.1 s is shorter than 2 launches" in " ".join(
        result.output.split())


def test_a_budgeted_run_calibrates_what_is_missing_then_spends_the_rest(spec, tmp_path):
    # The calibration takes ~1 s on an idle machine and several on a busy one, which may
    # leave too little of a budget for 2 launches of each cell (exit 2, said so): then
    # the same again with twice the budget, on a new database.
    for budget in (4, 8, 16, 32, 64):
        db = tmp_path / f"budget-{budget}.db"
        done = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(db), "--budget",
                               f"{budget}s"], capture_output=True, text=True, timeout=300,
                              check=False)
        if done.returncode != 2 or "shorter than 2 launches of every cell" not in done.stderr:
            break
    assert done.returncode == 0, done.stdout + done.stderr
    assert "calibrating 2 configuration(s)" in done.stdout
    store = Store.open_existing(db)
    calibration, measured = store.runs()
    assert calibration["suite"] == "planned.calibration"
    assert len(store.cells(calibration["id"])) == 2 * 4  # 4 launches of each
    chosen = json.loads(measured["launch_plan"])
    assert chosen["budget_s"] == budget and chosen["calibration_s"] > 0
    assert {c["components"] for c in chosen["configurations"]} == {"fresh"}
    launches = {c["launches"] for c in chosen["configurations"]}
    assert len(launches) == 1 and launches.pop() >= 2  # balanced blocks
    assert len(store.cells(measured["id"])) == sum(
        c["launches"] for c in chosen["configurations"])
    # Both runs measured the variance again: the calibrations are the last run's.
    rows = store._db.execute("SELECT run_id FROM calibrations").fetchall()
    assert {row["run_id"] for row in rows} == {measured["id"]}
    store.close()


def test_a_seed_repeats_the_order_of_the_launches(spec, tmp_path):
    db = tmp_path / "m.db"
    for _ in range(2):
        done = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(db), "--seed", "11"],
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "(seed 11)" in done.stdout
    store = Store.open_existing(db)
    first, second = ([(c["transport"], c["launch"]) for c in store.cells(run["id"])]
                     for run in store.runs())
    assert first == second and [launch for _, launch in first] == [1, 1, 2, 2, 3, 3]
    assert [run["seed"] for run in store.runs()] == [11, 11]
    store.close()


def test_repetitions_is_read_as_the_old_name_of_launches(tmp_path):
    from mwbench.spec import SpecError, parse_spec

    old = parse_spec(textwrap.dedent("""\
        suite: old
        defaults: {repetitions: 4}
        experiments: [{name: e, operation: roundtrip, drivers: rawtcp}]
        """), "old.yaml")
    assert old.defaults.launches == 4
    with pytest.raises(SpecError, match="set launches only: repetitions is its old name"):
        parse_spec("suite: s\nexperiments: [{name: e, operation: roundtrip, drivers: rawtcp, "
                   "launches: 2, repetitions: 3}]\n", "both.yaml")
