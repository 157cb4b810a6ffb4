"""`mwbench compare` on stored runs: how cells are matched into configurations, and what
is listed beside the verdicts. The statistics are tested on a two-level model in
test_compare_rates.py and test_launches_bootstrap.py."""

import numpy as np
import pytest

from conftest import version_1_database
from mwbench.comparison import NOT_RESOLVABLE, NoCommonCells, Settings, cautions, compare
from mwbench.comparison.runs import load_run
from mwbench.store import CellRecord, Store

FACTORS = dict(experiment="ping", driver="rawtcp", transport="tcp", mode="remote",
               operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
               priority=0, servants=None, threads=None, options=None)


def launches(median_ns: float, drifts, seed: int, size: int = 4000) -> list[np.ndarray]:
    """Skewed latency-like samples, one array per launch, each median scaled by a drift."""
    rng = np.random.default_rng(seed)
    return [rng.lognormal(np.log(median_ns * d), 0.2, size) for d in drifts]


# --- matching stored cells -------------------------------------------------------------


def add_run(store: Store, suite: str, cells: list[tuple[dict, int, np.ndarray | None]],
            delay_ns: int | None = None, batch_size: int = 1) -> int:
    """A run of (factor overrides, launch, samples in ns; None for a failed cell)."""
    run_id = store.begin_run(suite, "s.yaml", f"suite: {suite}", {}, "0.1.0")
    header = {"injected_delay_ns": delay_ns} if delay_ns else {}
    for overrides, launch, samples in cells:
        factors = {**FACTORS, **overrides, "launch": launch}
        if samples is None:
            store.add_cell(run_id, CellRecord(factors=factors, status="failed",
                                              error="server exited with status 3\nmore"))
        else:
            store.add_cell(run_id, CellRecord(factors=factors, status="ok",
                                              batch_size=batch_size, measurer_header=header,
                                              samples_ns=np.asarray(samples, dtype=np.int64)))
    store.end_run(run_id, "finished")
    return run_id


def cells(overrides: dict, median_ns: float, drifts, seed: int):
    return [(overrides, launch, samples.astype(np.int64)) for launch, samples
            in enumerate(launches(median_ns, drifts, seed, size=1000), start=1)]


@pytest.fixture
def store(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    yield store
    store.close()


def test_cells_are_matched_on_every_factor_but_the_launch(store):
    tcp, uds = {}, {"transport": "uds"}
    fast, slow = {"options": {"a": 1, "b": 2}}, {"options": {"b": 2, "a": 1}}
    base = add_run(store, "one", cells(tcp, 14_000, [1, 1, 1], 1) + cells(uds, 11_000, [1], 2)
                   + cells(fast, 9_000, [1, 1], 3) + [({"driver": "omniorb"}, 1, None)])
    new = add_run(store, "two", cells(tcp, 14_000, [1, 1], 4) + [(tcp, 3, None)]
                  + cells(slow, 12_000, [1, 1], 5) + cells({"payload_bytes": 64}, 1, [1], 6))
    result = compare(load_run(store, base), load_run(store, new))
    by_verdict = {row.verdict: row for row in result.rows}
    rows = {(row.factors["transport"], row.factors["driver"], row.factors["payload_bytes"],
             bool(row.factors["options"])): row for row in result.rows}
    assert len(result.rows) == 5
    same = rows["tcp", "rawtcp", 0, False]
    assert (same.base.launches, same.new.launches) == (3, 2)
    assert same.verdict == "no change"
    assert [(f.launch, f.error.splitlines()[0]) for f in same.new.failed] == [
        (3, "server exited with status 3")]
    # Options written in another order are the same configuration; this one got 33% slower.
    assert rows["tcp", "rawtcp", 0, True].verdict == "regression"
    assert rows["uds", "rawtcp", 0, False].verdict == "only in base"
    assert rows["tcp", "omniorb", 0, False].verdict == "only in base"
    assert rows["tcp", "omniorb", 0, False].base.failed
    assert rows["tcp", "rawtcp", 64, False].verdict == "only in new"
    assert set(by_verdict) == {"no change", "regression", "only in base", "only in new"}


def test_a_configuration_failed_in_one_run_is_listed_not_compared(store):
    base = add_run(store, "one", cells({}, 14_000, [1], 1) + cells({"mode": "x"}, 9_000, [1], 2))
    new = add_run(store, "one", [({}, 1, None)] + cells({"mode": "x"}, 9_000, [1], 3))
    result = compare(load_run(store, base), load_run(store, new))
    assert [row.verdict for row in result.rows] == ["failed in new", NOT_RESOLVABLE]
    assert result.broken == [result.rows[0]]  # the gate fails on it, like a regression
    assert result.rows[1].needs == 5  # one launch a side: no spread between launches seen
    assert any("single launch" in caution for caution in cautions(result))


def test_batched_samples_are_compared_per_call(store):
    base = add_run(store, "one", cells({"mode": "collocated"}, 50, [1, 1], 1))
    new = add_run(store, "one", cells({"mode": "collocated"}, 50 * 32, [1, 1], 2),
                  batch_size=32)  # ns per batch of 32 calls
    (row,) = compare(load_run(store, base), load_run(store, new)).rows
    assert row.new.p50_us == pytest.approx(row.base.p50_us, rel=0.05)
    assert row.verdict == "no change"


def test_runs_slowed_on_purpose_are_pointed_out(store):
    base = add_run(store, "one", cells({}, 14_000, [1, 1], 1))
    new = add_run(store, "one", cells({}, 44_000, [1, 1], 2), delay_ns=30_000)
    result = compare(load_run(store, base), load_run(store, new))
    assert result.rows[0].new.injected_delay_ns == 30_000
    assert any("slowed on purpose by 30000 ns" in caution and "NEW run 2" in caution
               for caution in cautions(result))


def test_runs_without_common_cells_are_refused(store):
    base = add_run(store, "one", cells({}, 14_000, [1, 1], 1))
    new = add_run(store, "two", cells({"experiment": "other"}, 14_000, [1], 2))
    with pytest.raises(NoCommonCells, match=r"run 1 \(suite one, 2 cells\) and run 2 "
                                            r"\(suite two, 1 cells\) have no cells in common"):
        compare(load_run(store, base), load_run(store, new))
    failed = add_run(store, "one", [({}, 1, None)])
    with pytest.raises(NoCommonCells, match="share 1 configurations, but none succeeded"):
        compare(load_run(store, base), load_run(store, failed), Settings())


def test_a_run_from_a_version_1_database_matches_a_new_run(tmp_path):
    # Old cells ran without background load: after the migration they match new cells
    # with `background: none`, so a comparison across the upgrade still finds them.
    path = tmp_path / "old.db"
    version_1_database(path)
    store = Store.open_existing(path)
    new_run = store.begin_run("quick", "s.yaml", "suite: quick", {}, "0.2.0")
    store.add_cell(new_run, CellRecord(
        factors={**FACTORS, "background": "none", "launch": 1}, status="ok", batch_size=1,
        samples_ns=np.array([14000, 15000, 16000])))
    old, new = load_run(store, 1), load_run(store, new_run)
    assert list(old.configurations) == list(new.configurations)
    assert old.configurations[next(iter(old.configurations))].factors["background"] == "none"
