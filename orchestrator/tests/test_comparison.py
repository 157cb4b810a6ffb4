"""The statistics of `mwbench compare` on known data, and the matching of stored cells."""

import numpy as np
import pytest
import scipy.stats

from conftest import version_1_database
from mwbench.comparison import (
    CLUSTER,
    SAMPLES,
    NoCommonCells,
    Settings,
    cautions,
    compare,
    verdict,
)
from mwbench.comparison.bootstrap import bootstrap_medians, pooled_median, ratio_interval
from mwbench.comparison.runs import load_run
from mwbench.store import CellRecord, Store

FACTORS = dict(experiment="ping", driver="rawtcp", transport="tcp", mode="remote",
               operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
               priority=0, servants=None, threads=None, options=None)


def repetitions(median_ns: float, drifts, seed: int, size: int = 4000) -> list[np.ndarray]:
    """Skewed latency-like samples, one array per repetition, each median scaled by a drift."""
    rng = np.random.default_rng(seed)
    return [rng.lognormal(np.log(median_ns * d), 0.2, size) for d in drifts]


def interval(base, new, seed=1, confidence=0.95):
    return ratio_interval(base, new, confidence, np.random.default_rng(seed))


@pytest.mark.parametrize("n", [1, 2, 7, 8, 101, 100])
def test_drawn_medians_have_the_distribution_of_resampled_medians(n):
    sample = np.sort(np.random.default_rng(n).lognormal(9, 0.3, n))
    drawn = bootstrap_medians(sample, 100_000, np.random.default_rng(1))
    indices = np.random.default_rng(2).integers(0, n, size=(100_000, n))
    resampled = np.median(sample[indices], axis=1)
    # The largest gap between the two empirical distribution functions (Kolmogorov-Smirnov
    # distance); its sampling error with 100,000 draws each is about 0.003.
    points = np.union1d(drawn, resampled)
    gap = np.abs(np.searchsorted(np.sort(drawn), points, side="right")
                 - np.searchsorted(np.sort(resampled), points, side="right")).max() / 100_000
    assert gap < 0.01


def test_single_repetition_interval_agrees_with_scipy_bootstrap():
    (base,) = repetitions(14_000, [1.0], seed=3, size=3000)
    (new,) = repetitions(15_000, [1.0], seed=4, size=3000)
    ours = interval([base], [new])
    reference = scipy.stats.bootstrap(
        (new, base), lambda n, b, axis: np.median(n, axis=axis) / np.median(b, axis=axis),
        n_resamples=2000, method="percentile", vectorized=True,
        random_state=np.random.default_rng(1)).confidence_interval
    # Two Monte Carlo estimates of the same quantiles: equal to a few tenths of a percent.
    assert ours[0] == pytest.approx(reference.low, rel=0.004)
    assert ours[1] == pytest.approx(reference.high, rel=0.004)


def test_known_ratio_is_inside_the_interval_and_one_is_outside():
    drifts = [0.97, 1.0, 1.04]  # the same drift on both sides: the true ratio is exactly 1.25
    base = repetitions(10_000, drifts, seed=5)
    new = repetitions(12_500, drifts, seed=6)
    low, high = interval(base, new)
    assert low < 1.25 < high
    assert low > 1.0
    ratio = pooled_median(new) / pooled_median(base)
    assert verdict(ratio, low, high, threshold=0.05) == "regression"


def test_identical_distributions_give_an_interval_around_one_and_no_regression():
    drifts = [0.97, 1.0, 1.04]
    base = repetitions(10_000, drifts, seed=7)
    new = repetitions(10_000, drifts, seed=8)
    low, high = interval(base, new)
    assert low < 1.0 < high
    assert verdict(pooled_median(new) / pooled_median(base), low, high, 0.05) == "no change"


def test_drift_between_repetitions_widens_the_interval():
    # The same configuration, whose repetitions land 0–30% apart, as on a shared machine.
    base = repetitions(14_000, [1.0, 1.15, 1.3], seed=9)
    new = repetitions(14_000, [1.3, 1.0, 1.15], seed=10)
    assert interval(base, new)[0] < 1.0 < interval(base, new)[1]
    # Either first repetition alone calls the 30% drift a certain slowdown.
    low, _ = interval(base[:1], new[:1])
    assert low > 1.2


def test_a_fixed_seed_gives_the_same_interval():
    base = repetitions(10_000, [1.0, 1.1], seed=11)
    new = repetitions(10_500, [1.0, 1.1], seed=12)
    assert interval(base, new, seed=5) == interval(base, new, seed=5)
    assert interval(base, new, seed=5) != interval(base, new, seed=6)


@pytest.mark.parametrize("ratio, low, high, expected", [
    (1.05, 1.01, 1.09, "no change"),         # exactly at the threshold is not beyond it
    (1.0501, 1.01, 1.09, "regression"),
    (1.06, 1.0, 1.12, "not significant"),    # the interval must lie wholly above 1
    (1.03, 1.01, 1.05, "no change"),         # certain, but within the threshold
    (0.95, 0.91, 0.99, "no change"),
    (0.94, 0.90, 0.99, "improvement"),
    (0.94, 0.90, 1.0, "not significant"),
    (1.3, 1.2, 1.4, "regression"),
])
def test_verdict_at_the_edges_of_the_threshold(ratio, low, high, expected):
    assert verdict(ratio, low, high, threshold=0.05) == expected


def test_zero_threshold_judges_by_significance_alone():
    assert verdict(1.001, 1.0005, 1.002, threshold=0.0) == "regression"


# --- matching stored cells -------------------------------------------------------------


def add_run(store: Store, suite: str, cells: list[tuple[dict, int, np.ndarray | None]],
            delay_ns: int | None = None, batch_size: int = 1) -> int:
    """A run of (factor overrides, repetition, samples in ns; None for a failed cell)."""
    run_id = store.begin_run(suite, "s.yaml", f"suite: {suite}", {}, "0.1.0")
    header = {"injected_delay_ns": delay_ns} if delay_ns else {}
    for overrides, repetition, samples in cells:
        factors = {**FACTORS, **overrides, "repetition": repetition}
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
    return [(overrides, rep, samples.astype(np.int64)) for rep, samples
            in enumerate(repetitions(median_ns, drifts, seed, size=1000), start=1)]


@pytest.fixture
def store(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    yield store
    store.close()


def test_cells_are_matched_on_every_factor_but_the_repetition(store):
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
    assert (same.base.repetitions, same.new.repetitions) == (3, 2)
    assert same.verdict == "no change" and same.method == CLUSTER
    assert [(f.repetition, f.error.splitlines()[0]) for f in same.new.failed] == [
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
    assert [row.verdict for row in result.rows] == ["failed in new", "no change"]
    assert result.broken == [result.rows[0]]  # the gate fails on it, like a regression
    assert result.rows[1].method == SAMPLES
    assert any("single repetition" in caution for caution in cautions(result))


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
        factors={**FACTORS, "background": "none", "repetition": 1}, status="ok", batch_size=1,
        samples_ns=np.array([14000, 15000, 16000])))
    old, new = load_run(store, 1), load_run(store, new_run)
    assert list(old.configurations) == list(new.configurations)
    assert old.configurations[next(iter(old.configurations))].factors["background"] == "none"
