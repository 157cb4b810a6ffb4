"""`compare`'s false-alarm and detection rates on runs drawn from a two-level model.

Each simulated run measures one configuration by L launches: a launch settles
at a level (log-normal, spread `between`), and its calls scatter around it.
Pairs of runs of the same model must almost never be flagged (false alarms);
pairs where one run is slower by 15% must almost always be (detection) once
the runs have the launches their spread needs; and where they have too few,
compare must say the change is not resolvable rather than guess.
"""

import itertools

import numpy as np
import pytest

from mwbench.comparison import (
    IMPROVEMENT,
    NOT_RESOLVABLE,
    REGRESSION,
    Settings,
    compare,
    launches_needed,
    smallest_detectable,
    verdict,
)
from mwbench.comparison.runs import Configuration, RunCells

FACTORS = {"experiment": "ping", "driver": "omniorb", "transport": "tcp"}
TEN_PERCENT = Settings(threshold=0.10, replicates=1000)


def run(rng, run_id: int, launches: int, between: float, slower: float = 1.0) -> RunCells:
    levels = 12_000 * slower * np.exp(rng.normal(0.0, between, launches))
    measured = {k: lv * (1.0 + rng.gamma(2.0, 0.1, 500)) for k, lv in enumerate(levels, 1)}
    configuration = Configuration(factors=FACTORS, launches=measured)
    return RunCells(run_id, "model", launches, {("ping",): configuration})


def verdicts(pairs) -> list[str]:
    return [compare(base, new, TEN_PERCENT).rows[0].verdict for base, new in pairs]


def test_reruns_of_one_spec_are_flagged_in_at_most_five_percent_of_pairs():
    rng = np.random.default_rng(11)
    runs = [run(rng, i, launches=10, between=0.04) for i in range(12)]
    found = verdicts(itertools.permutations(runs, 2))  # 132 ordered pairs
    flagged = sum(v in (REGRESSION, IMPROVEMENT) for v in found)
    assert flagged / len(found) <= 0.05


def test_a_fifteen_percent_slowdown_is_flagged_in_at_least_95_percent_of_pairs():
    rng = np.random.default_rng(12)
    pairs = [(run(rng, 2 * i, 10, 0.04), run(rng, 2 * i + 1, 10, 0.04, slower=1.15))
             for i in range(100)]
    found = verdicts(pairs)
    assert found.count(REGRESSION) / len(found) >= 0.95


def test_with_too_few_launches_for_their_spread_changes_are_not_resolvable_not_flagged():
    # Launches spread 20%: 5 a side cannot resolve 10%, and compare says so.
    rng = np.random.default_rng(13)
    runs = [run(rng, i, launches=5, between=0.2) for i in range(12)]
    pairs = list(itertools.permutations(runs, 2))
    found = verdicts(pairs)
    assert sum(v in (REGRESSION, IMPROVEMENT) for v in found) / len(found) <= 0.05
    assert found.count(NOT_RESOLVABLE) / len(found) >= 0.5
    row = compare(*pairs[0], TEN_PERCENT).rows[0]
    if row.verdict == NOT_RESOLVABLE:
        assert row.needs > 5 and row.detectable > 0.10


def test_the_launches_needed_do_resolve_the_threshold():
    # Read the launches needed off a pair of 5-launch runs, run that many, and the
    # smallest detectable change is then near the threshold.
    rng = np.random.default_rng(14)
    row = compare(run(rng, 1, 5, 0.1), run(rng, 2, 5, 0.1), TEN_PERCENT).rows[0]
    assert row.verdict == NOT_RESOLVABLE
    bigger = compare(run(rng, 3, row.needs, 0.1), run(rng, 4, row.needs, 0.1),
                     TEN_PERCENT).rows[0]
    assert bigger.detectable == pytest.approx(0.10, abs=0.04)


def test_one_launch_a_side_is_never_resolvable():
    rng = np.random.default_rng(15)
    row = compare(run(rng, 1, 1, 0.05), run(rng, 2, 1, 0.05, slower=2.0), TEN_PERCENT).rows[0]
    assert row.verdict == NOT_RESOLVABLE and row.ci_low is None and row.needs == 5


@pytest.mark.parametrize("ratio, low, high, expected", [
    (1.15, 1.05, 1.25, REGRESSION),
    (1.15, 0.95, 1.35, NOT_RESOLVABLE),   # large, but not certain
    (1.02, 0.97, 1.07, "no change"),      # the whole interval within 10%
    (1.02, 0.85, 1.20, NOT_RESOLVABLE),   # 1.20 is as likely as 1.02
    (1.04, 1.01, 1.07, "no change"),      # a real change, too small to matter
    (1.08, 1.03, 1.13, NOT_RESOLVABLE),   # real, and maybe beyond the threshold
    (0.85, 0.80, 0.90, IMPROVEMENT),
    (1.10, 1.05, 1.10, "no change"),      # exactly at the threshold is not beyond it
    (1.10, 1.05, 1.15, NOT_RESOLVABLE),   # at the threshold, and maybe beyond it
])
def test_verdicts_at_the_edges(ratio, low, high, expected):
    assert verdict(ratio, low, high, threshold=0.10) == expected


def test_smallest_detectable_change_and_launches_needed():
    replicates = np.exp(np.random.default_rng(1).normal(0.0, 0.02, 100_000))
    # (1.96 + 0.84) x 2% in log terms
    assert smallest_detectable(replicates, 0.95) == pytest.approx(np.exp(2.8 * 0.02) - 1,
                                                                  rel=0.02)
    assert launches_needed(5, detectable=0.2, threshold=0.1) == pytest.approx(
        5 * (np.log1p(0.2) / np.log1p(0.1)) ** 2, abs=1)
    assert launches_needed(5, detectable=0.05, threshold=0.1) == 6
