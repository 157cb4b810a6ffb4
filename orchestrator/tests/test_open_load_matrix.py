"""What the matrix and the plan make of invocation modes and open-loop loads: the cells a
driver cannot run skipped with the reason, the contradictions of a spec refused, and
rates that cannot finish in a cell's timeout or the run's budget refused before anything
runs. The drivers are their `--describe`, written out."""

import io

import numpy as np
import pytest
from click.testing import CliRunner
from rich.console import Console

from conftest import write_spec
from mwbench.cli import main
from mwbench.hosts.inventory import load_inventory
from mwbench.launch_plan import make_plan, open_loop_problems
from mwbench.launches.calibration import Lookup
from mwbench.launches.chooser import BudgetError
from mwbench.matrix import MatrixError, expand
from mwbench.spec import Spec
from mwbench.stats import summarize
from mwbench.store import CellRecord, Store
from mwbench.summary import print_summary
from open_loop_drivers import DRIVERS, INVENTORY, described  # noqa: F401 - a fixture


def spec(**experiment) -> Spec:
    return Spec.model_validate({"suite": "t", "experiments": [
        {"name": "e", "operation": "roundtrip", "warmup": 0, "samples": 100,
         **experiment}]})


def skips(matrix) -> list[tuple[str, str]]:
    return [(skipped.driver, skipped.reason) for skipped in matrix.skipped]


def test_an_open_load_of_an_operation_outside_open_loop_is_skipped_with_the_reason():
    matrix = expand(spec(drivers=["rawtcp", "deploy"], operation=["roundtrip", "assembly"],
                         load=["closed", "poisson:100"]), DRIVERS)
    assert [(c["driver"], c["operation"], c["load"]) for c in matrix.configurations] == [
        ("rawtcp", "roundtrip", "closed"), ("rawtcp", "roundtrip", "poisson:100"),
        ("deploy", "assembly", "closed")]
    assert ("deploy", "driver deploy has no open-loop load for operation assembly") \
        in skips(matrix)


@pytest.mark.parametrize(("setting", "reason"), [
    ({"threads": [2]}, "an open loop sends from one client thread; this cell has 2 threads"),
    ({"batch": 8}, "an open loop times each call (batch 1 or auto); this cell has batch 8"),
    ({"invocation": ["dii"]}, "an open loop invokes by AMI callbacks (invocation "
                              "ami_callback, or unset); invocation dii runs in a closed loop "
                              "only"),
    ({"options": {"delivery_time": ["1"]}}, "with delivery_time=1 omniorb times one way, from the "
                                       "servant's clock, in a closed loop only")])
def test_an_open_load_the_harness_refuses_is_skipped_with_the_reason(setting, reason):
    matrix = expand(spec(drivers="omniorb", load="constant:100", **setting), DRIVERS)
    assert matrix.configurations == []
    assert skips(matrix) == [("omniorb", reason)]


def test_an_open_load_with_ami_callbacks_runs():
    matrix = expand(spec(drivers="omniorb", load="constant:100",
                         invocation=["ami_callback", "static"]), DRIVERS)
    assert [c["invocation"] for c in matrix.configurations] == ["ami_callback"]


def test_oneway_with_an_operation_that_replies_is_skipped_with_the_reason():
    matrix = expand(spec(drivers=["omniorb", "rawtcp"], operation=["roundtrip", "octets_out"],
                         invocation=["static", "oneway"]), DRIVERS)
    assert ("omniorb", "octets_out", "oneway") not in [
        (c["driver"], c["operation"], c["invocation"]) for c in matrix.configurations]
    assert ("omniorb", "invocation oneway cannot carry octets_out: a oneway call has no "
                       "reply") in skips(matrix)


def test_oneway_calls_ping_only():
    matrix = expand(spec(drivers="omniorb", operation=["ping", "roundtrip"],
                         invocation="oneway"), DRIVERS)
    assert [c["operation"] for c in matrix.configurations] == ["ping"]
    assert skips(matrix) == [("omniorb", "invocation oneway calls `oneway void ping_oneway()`: "
                                         "the operation ping only, not roundtrip")]


@pytest.mark.parametrize("options", [{"invocation": "oneway"},
                                     {"options": {"invocation": ["oneway"]}}])
def test_an_experiment_left_with_no_cell_by_oneway_is_an_error_naming_it(options):
    with pytest.raises(MatrixError) as error:
        expand(spec(drivers="omniorb", operation="octets_out", **options), DRIVERS)
    assert str(error.value) == ("experiment 'e' has no cell to run: invocation oneway cannot "
                                "carry octets_out: a oneway call has no reply")


@pytest.mark.parametrize("options", [{"invocation": "oneway"},
                                     {"options": {"delivery_time": ["1"]}}])
def test_a_one_way_option_across_hosts_is_skipped_as_one_way_operations_are(tmp_path,
                                                                            options):
    (tmp_path / "hosts.yaml").write_text(INVENTORY)
    across = {"client": "near", "server": "far"}
    matrix = expand(spec(drivers="omniorb", operation="ping", hosts=[across, "far"],
                         **options), DRIVERS, load_inventory(tmp_path / "hosts.yaml"))
    assert [c["hosts"] for c in matrix.configurations] == ["far"]
    ((driver, reason),) = skips(matrix)
    assert driver == "omniorb" and reason.startswith(
        "with invocation=oneway omniorb times one way" if "invocation" in options else
        "with delivery_time=1 omniorb times one way")
    assert "synchronised clocks" in reason


def matrix_of(**experiment):
    return expand(spec(drivers="rawtcp", **experiment), DRIVERS)


def plan_of(matrix, budget_s: float | None = None):
    return make_plan(matrix, [Lookup(None, "missing")] * len(matrix.configurations), budget_s)


def test_an_open_load_that_outlasts_the_cells_timeout_is_refused_naming_rate_and_time():
    matrix = matrix_of(load=["closed", "poisson:10", "poisson:1000"], warmup=100,
                       samples=1000, timeout_s=60)
    (problem,) = open_loop_problems(plan_of(matrix))
    assert problem.startswith("experiment 'e': load poisson:10 (")
    assert ("100 warm-up calls and 1000 samples at 10 per second take 110.0 s a launch, "
            "more than its timeout_s of 60 s") in problem


def test_open_loads_that_outlast_the_budget_are_refused_naming_rate_and_time():
    # The chooser gives every cell 1000 samples and 2 launches at least: 4 s at 500/s.
    matrix = matrix_of(load=["closed", "constant:500", "constant:5000"], warmup=0)
    with pytest.raises(BudgetError) as error:
        plan_of(matrix, budget_s=4.0)
    assert ("the open-loop cells alone take at least 4.4 s at their rates; the longest: "
            "experiment 'e' load constant:500: 2 launches of 0 + 1000 calls, 4.0 s; "
            "experiment 'e' load constant:5000: 2 launches of 0 + 1000 calls, 0.4 s"
            ) in str(error.value)
    assert open_loop_problems(plan_of(matrix, budget_s=60.0)) == []


def test_a_plan_paces_an_open_loop_by_its_rate():
    matrix = expand(spec(drivers="rawtcp", load=["closed", "constant:100"], warmup=100,
                         samples=1000, launches=2), DRIVERS)
    plan = make_plan(matrix, [Lookup(None, "missing")] * 2, None)
    closed, paced = (row.duration_s for row in plan.rows)
    assert paced >= 2 * (100 + 1000) / 100 > closed


def record(levels: dict, offered: float, achieved: float) -> CellRecord:
    samples = np.full(100, 20_000, dtype=np.int64)
    header = {"load": {"kind": "constant", "rate_per_s": 100.0, "calls": 100,
                       "offered_per_s": offered, "achieved_per_s": achieved,
                       "late_sends": 0, "outstanding_at_end": 0, "lost": 0}}
    return CellRecord(factors=levels, status="ok", batch_size=1, samples_ns=samples,
                      measurer_header=header if levels["load"] != "closed" else {},
                      stats=summarize(samples.astype(float), 100, 2_000_000).as_dict())


def test_the_end_of_run_summary_shows_offered_and_achieved_rates_of_open_loops():
    matrix = expand(spec(drivers="rawtcp", load=["closed", "constant:100"], launches=2),
                    DRIVERS, seed=3)
    records = [record(cell.levels, 100.0 + cell["launch"], 97.0 + cell["launch"])
               for cell in matrix.cells]
    console = Console(width=400, record=True, file=io.StringIO())
    print_summary(console, records, matrix)
    text = console.export_text()
    assert "offered/s" in text and "achieved/s" in text
    (open_row,) = [line for line in text.splitlines() if "constant:100 load" in line]
    assert "102" in open_row and "98" in open_row  # 101.5 and 98.5, rounded to even


def refusal(tmp_path, loads: str, *arguments: str):
    """`mwbench VERB` of a spec whose experiment `sweep` sweeps `loads`, refused."""
    path = write_spec(tmp_path, "suite: s\nexperiments:\n  - name: sweep\n"
                                "    drivers: [rawtcp]\n    operation: roundtrip\n"
                                f"    load: {loads}\n    warmup: 10\n    samples: 1000\n")
    db = tmp_path / "m.db"
    result = CliRunner().invoke(main, [arguments[0], str(path), "--db", str(db),
                                       *arguments[1:]])
    assert result.exit_code == 2, result.output
    if db.exists():  # `run` opens the database first; nothing is stored in it
        store = Store.open_existing(db)
        assert store.runs() == []
        store.close()
    return result.output


@pytest.mark.parametrize("verb", ["run", "plan"])
@pytest.mark.usefixtures("described")
def test_mwbench_refuses_a_sweep_that_cannot_finish_before_anything_runs(tmp_path, verb):
    said = refusal(tmp_path, '[closed, "constant:2"]', verb)
    assert said.startswith(f"mwbench {verb}: experiment 'sweep': load constant:2 (")
    assert "take 505.0 s a launch, more than its timeout_s of 120 s" in said


@pytest.mark.usefixtures("described")
def test_mwbench_run_refuses_open_loops_beyond_its_budget_naming_them(tmp_path):
    said = refusal(tmp_path, '["constant:100", "constant:1000"]', "run", "--budget", "15s")
    assert said.startswith("mwbench run: --budget ")
    assert "experiment 'sweep' load constant:100: 2 launches of 10 + 1000 calls, 20.2 s" \
        in said
