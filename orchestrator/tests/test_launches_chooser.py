"""Launches and samples from variance and cost, as Kalibera and Jones's rule gives them."""

import math

import numpy as np
import pytest

from mwbench.launches.chooser import (
    MAX_SAMPLES,
    MIN_SAMPLES,
    BudgetError,
    best_samples,
    choose,
    expected_half_width,
)
from mwbench.launches.variance import Components, components, median_variance


def made(between=0.03**2, within=0.4, launch_s=0.08, sample_s=10e-6) -> Components:
    return Components(between, within, launch_s, sample_s, launches=8, samples=2000)


def test_samples_per_launch_follow_the_kalibera_jones_formula():
    c = made()
    expected = math.sqrt(c.launch_cost_s / c.sample_cost_s * c.within / c.between)
    assert best_samples(c) == round(expected)  # 1,886: within the bounds


def test_a_larger_spread_between_launches_asks_for_shorter_launches():
    assert best_samples(made(between=0.06**2)) < best_samples(made(between=0.03**2))
    assert best_samples(made(launch_s=0.5)) > best_samples(made(launch_s=0.05))


def test_samples_stay_within_their_bounds():
    assert best_samples(made(between=0.5**2)) == MIN_SAMPLES
    assert best_samples(made(between=1e-9, launch_s=10.0)) == MAX_SAMPLES


def test_every_cell_gets_the_launches_that_fit_the_budget():
    cells = [made(), made(between=0.01**2, sample_s=50e-6)]
    choices = choose(cells, budget_s=60.0)
    block = sum(c.launch_s(ch.samples) for c, ch in zip(cells, choices, strict=True))
    assert {ch.launches for ch in choices} == {int(60.0 // block)}
    assert sum(ch.duration_s for ch in choices) <= 60.0
    # Its expected interval: t(L-1) x the standard deviation of the median over launches.
    ch = choices[0]
    sd = math.sqrt(math.pi / 2 * (cells[0].between + cells[0].within / ch.samples) / ch.launches)
    assert ch.half_width == pytest.approx(expected_half_width(cells[0], ch.launches,
                                                              ch.samples))
    assert sd * 1.96 < ch.half_width < sd * 2.2


def test_a_budget_shorter_than_two_launches_of_every_cell_is_refused():
    cells = [made(launch_s=1.0)] * 3
    with pytest.raises(BudgetError, match=r"2 s is shorter than 2 launches of every cell: one "
                                          r"launch of each of the 3 cells takes about"):
        choose(cells, budget_s=2.0)


def test_components_of_a_two_level_model_are_found():
    rng = np.random.default_rng(3)
    between, samples, count = 0.05, 2000, 40
    levels = 10_000 * np.exp(rng.normal(0.0, between, count))
    launches = [lv * (1 + rng.gamma(2.0, 0.1, samples)) for lv in levels]
    found = components(launches, [0.1 + launch.sum() / 1e9 for launch in launches])
    assert math.sqrt(found.between) == pytest.approx(between, rel=0.3)
    # Within: a launch's median varies as the model's, whose relative variance we measure.
    medians = [np.median(lv * (1 + rng.gamma(2.0, 0.1, samples))) for lv in [10_000] * 400]
    observed = np.var(medians) / np.median(medians) ** 2 * samples
    assert found.within == pytest.approx(observed, rel=0.3)
    assert found.launch_cost_s == pytest.approx(0.1, rel=1e-6)
    assert found.sample_cost_s == pytest.approx(np.mean(np.concatenate(launches)) / 1e9)


def test_a_median_variance_is_read_from_its_order_statistics():
    rng = np.random.default_rng(4)
    # The variance of a normal sample's median is pi/2 * sigma^2 / n; one sample's reading
    # scatters by about 10%, so take the mean of 40.
    readings = [median_variance(np.sort(rng.normal(0.0, 1.0, 10_000))) for _ in range(40)]
    assert np.mean(readings) == pytest.approx(math.pi / 2 / 10_000, rel=0.06)
