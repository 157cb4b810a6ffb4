"""The combined-factor estimate against values computed by hand, on known stored cells.

The run is conftest.known_estimate_cells, small enough to check on paper.
"""

import pytest

from conftest import known_estimate_cells, store_cells
from mwbench.estimate import EstimateError, Selection, estimate, mixture_rows, run_cells
from mwbench.store import Store

OWN, SHARED = {"connections": "own"}, {"connections": "shared"}
OCTETS_OWN = Selection(operation="octets", options=OWN)


@pytest.fixture
def cells(tmp_path):
    db = tmp_path / "m.db"
    run_id = store_cells(db, known_estimate_cells())
    store = Store.open_existing(db)
    yield run_cells(store, run_id)
    store.close()


def test_the_formula_on_hand_computed_values(cells):
    result = estimate(cells, 4096, 100, 2, OCTETS_OWN)
    # (20 + 25 - 21 + 21 - 20.5) * 38 / 20 = 24.5 * 1.9
    assert result.estimate_us == pytest.approx(46.55)
    assert [(p.term, p.value_us) for p in result.terms] == [
        ("simple", 20.0), ("size(4096)", 25.0), ("size(0)", 21.0), ("servants(100)", 21.0),
        ("servants(1)", 20.5), ("threads(2)", 38.0), ("threads(1)", 20.0)]
    assert result.formula() == ("(20.000 + 25.000 - 21.000 + 21.000 - 20.500) * 38.000 / 20.000"
                                " = 46.550")
    by_id = {c["id"]: c for c in cells}
    for point in result.terms:  # each term names the cells it came from
        assert point.cell_ids and all(by_id[i]["p50_us"] == point.value_us
                                      for i in point.cell_ids)
    assert result.context["driver"] == "omniorb" and result.context["transport"] == "tcp"


def test_only_the_terms_a_question_needs_are_looked_up(cells):
    assert estimate(cells, 0, 1, 1).estimate_us == 20.0
    assert [p.term for p in estimate(cells, 0, 1, 1).terms] == ["simple"]
    # 20 + 80 - 21; the servants and threads sweeps are not consulted.
    assert estimate(cells, 65536, 1, 1, OCTETS_OWN).estimate_us == pytest.approx(79.0)
    # 20 * 76 / 20 with own connections; 20 * 30 / 20 with a shared one.
    assert estimate(cells, 0, 1, 4, Selection(options=OWN)).estimate_us == pytest.approx(76.0)
    assert estimate(cells, 0, 1, 2, Selection(options=SHARED)).estimate_us == pytest.approx(30)


def test_a_size_between_measured_sizes_is_interpolated_and_says_so(cells):
    result = estimate(cells, 2048, 1, 1, OCTETS_OWN)
    size = result.term("size(2048)")
    # 22 + (2048 - 1024) / (4096 - 1024) * (25 - 22) = 23; the estimate is 20 + 23 - 21.
    assert size.value_us == pytest.approx(23.0)
    assert size.note == "interpolated linearly between 1024 B and 4096 B"
    assert len(size.cell_ids) == 2
    assert result.estimate_us == pytest.approx(22.0)


def test_launches_give_the_median_of_their_medians(tmp_path):
    db = tmp_path / "m.db"
    run_id = store_cells(db, [
        {"experiment": "simple", "role": "simple", "p50_us": value, "launch": rep}
        for rep, value in ((1, 20.0), (2, 26.0), (3, 21.0))])
    store = Store.open_existing(db)
    result = estimate(run_cells(store, run_id), 0, 1, 1)
    assert result.estimate_us == 21.0 and len(result.terms[0].cell_ids) == 3


@pytest.mark.parametrize("question, message", [
    ((0, 50, 1), "the servants sweep (experiment dispatcher, omniorb remote tcp same-cpu) has "
                 "no cell with servants 50; measured: 1, 10, 100, 1000"),
    ((0, 100000, 1), "servants 100000 failed in this run (cell 12: server exited with status 1 "
                     "before publishing its endpoint)"),
    ((0, 1, 3), "has no cell with threads 3; measured: 1, 2, 4"),
    ((131072, 1, 1), "has no cell with payload_bytes 131072, and 131072 is outside the "
                     "measured 0 to 65536 B, so it cannot be interpolated"),
])
def test_a_missing_point_names_the_factor_and_what_was_measured(cells, question, message):
    with pytest.raises(EstimateError) as error:
        estimate(cells, *question, OCTETS_OWN)
    assert message in str(error.value)


def test_several_configurations_are_a_choice_the_error_lists(cells):
    with pytest.raises(EstimateError, match=r"the threads sweep for omniorb remote tcp same-cpu "
                                            r"has 2 configurations \(experiment parallelism ping "
                                            r"connections=own; experiment parallelism ping "
                                            r"connections=shared\): choose with"):
        estimate(cells, 0, 1, 2)


def test_the_size_sweep_operation_is_chosen_or_listed(tmp_path):
    db = tmp_path / "m.db"
    wanted = ("simple", "size")
    run_id = store_cells(db, [c for c in known_estimate_cells() if c.get("role") in wanted])
    store = Store.open_existing(db)
    cells = run_cells(store, run_id)
    with pytest.raises(EstimateError, match=r"several values of operation \(octets, octets_out\)"
                                            r": choose one with --operation"):
        estimate(cells, 4096, 1, 1)
    assert estimate(cells, 4096, 1, 1, Selection(operation="octets_out")).estimate_us == 20.0


def test_the_mixture_experiment_chooses_when_the_caller_does_not(tmp_path):
    db = tmp_path / "m.db"
    mixture = {"experiment": "mixture", "role": "mixture", "operation": "octets",
               "payload_bytes": 4096, "servants": 100, "threads": 2, "options": OWN,
               "p50_us": 50.0}
    rawtcp = {"experiment": "simple", "role": "simple", "driver": "rawtcp", "p50_us": 10.0}
    run_id = store_cells(db, [*known_estimate_cells(), rawtcp, mixture])
    store = Store.open_existing(db)
    cells = run_cells(store, run_id)
    # Two drivers, two operations of the size sweep, two thread configurations: the
    # mixture measured omniorb, octets and own connections, so those are taken.
    assert estimate(cells, 4096, 100, 2).estimate_us == pytest.approx(46.55)
    assert estimate(cells, 0, 1, 1, Selection(driver="rawtcp")).estimate_us == 10.0
    with pytest.raises(EstimateError, match="has no cell with driver zmq; it has: omniorb, "
                                            "rawtcp"):
        estimate(cells, 0, 1, 1, Selection(driver="zmq"))
    (row,) = mixture_rows(cells)
    assert row.measured_us == 50.0 and row.estimate.estimate_us == pytest.approx(46.55)
    assert row.relative_error == pytest.approx((46.55 - 50.0) / 50.0)


def test_a_run_without_a_simple_experiment_says_what_is_missing(tmp_path):
    db = tmp_path / "m.db"
    run_id = store_cells(db, [{"experiment": "ping", "p50_us": 1.0}])
    store = Store.open_existing(db)
    with pytest.raises(EstimateError, match="the run has no experiment with role: simple"):
        estimate(run_cells(store, run_id), 0, 1, 1)


def test_terms_come_from_the_simple_cells_conditions_only(tmp_path):
    db = tmp_path / "m.db"
    cells = known_estimate_cells() + [
        {"experiment": "loaded", "role": "servants", "servants": 10, "background": "cpu:2",
         "p50_us": 90.0},
        {"experiment": "loaded", "role": "servants", "servants": 1, "background": "cpu:2",
         "p50_us": 40.0}]
    run_id = store_cells(db, cells)
    store = Store.open_existing(db)
    # The loaded sweep differs in background from the simple cell: it is not an input.
    result = estimate(run_cells(store, run_id), 0, 10, 1)
    assert result.estimate_us == pytest.approx(20.0 + 20.6 - 20.5)
