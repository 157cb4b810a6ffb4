"""The full factorial's effects against values worked out by hand (Jain, chapter 22).

A 3x2 design, A (three levels) x B (two), three launches per cell at m - 1, m, m + 1:

    mu = 20, alpha = (-4, 1, 3), beta = (-2, 2), gamma = [[1, -1], [0, 0], [-1, 1]]
    cell means m_ij = mu + alpha_i + beta_j + gamma_ij:   15 17 / 19 23 / 20 26

    SS_A  = r b sum alpha^2 = 3 * 2 * 26 = 156     df 2
    SS_B  = r a sum beta^2  = 3 * 3 * 8  = 72      df 1
    SS_AB = r sum gamma^2   = 3 * 4      = 12      df 2
    SSE   = 6 cells * 2     = 12                   df 6 * (3 - 1) = 12
    SST   = 252; F_AB = (12 / 2) / (12 / 12) = 6
"""

import numpy as np
import pytest
from scipy import stats

from mwbench.factorial_design import analyse as analyse_2k
from mwbench.full_factorial import analyse, terms_of

MEANS = np.array([[15, 17], [19, 23], [20, 26]], dtype=float)
KNOWN = MEANS[..., None] + np.array([-1.0, 0.0, 1.0])


def estimates(term):
    return [effect.estimate for effect in term.effects]


def test_each_levels_effect_is_its_mean_less_the_grand_mean():
    analysis = analyse(KNOWN)
    assert analysis.grand_mean == pytest.approx(20)
    assert analysis.cell_means == pytest.approx(MEANS)
    a, b, ab = analysis.terms
    assert [t.factors for t in analysis.terms] == [(0,), (1,), (0, 1)] == terms_of(2)
    assert estimates(a) == pytest.approx([-4, 1, 3])
    assert estimates(b) == pytest.approx([-2, 2])
    # The interaction's cells, the last factor fastest.
    assert [e.levels for e in ab.effects] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert estimates(ab) == pytest.approx([1, -1, 0, 0, -1, 1], abs=1e-12)


def test_allocation_of_variation_and_the_f_test_match_the_hand_computation():
    analysis = analyse(KNOWN)
    assert [t.share for t in analysis.terms] == pytest.approx([156 / 252, 72 / 252, 12 / 252])
    assert analysis.error_share == pytest.approx(12 / 252)
    assert [t.degrees_of_freedom for t in analysis.terms] == [2, 1, 2]
    interaction = analysis.terms[2]
    assert interaction.p_value == pytest.approx(stats.f.sf(6.0, 2, 12))
    assert analysis.terms[0].p_value == pytest.approx(stats.f.sf(78.0, 2, 12))


def test_every_effect_has_a_reproducible_bootstrap_interval_around_it():
    analysis = analyse(KNOWN)
    for term in analysis.terms:
        for effect in term.effects:
            low, high = effect.interval
            assert low <= effect.estimate <= high
    main = analysis.terms[0].effects
    assert [e.significant for e in main] == [True, True, True]
    assert analyse(KNOWN).terms[2].effects[0].interval == \
        analysis.terms[2].effects[0].interval


def test_a_two_level_design_gives_the_2k_effects_halved():
    # The 2x2 of test_factorial_design.py: effects 13, 7, 3 in contrast form, Jain's q half.
    standard = [[10, 11, 12], [20, 21, 22], [14, 15, 16], [30, 31, 32]]  # A fastest
    grid = np.array([[standard[0], standard[2]], [standard[1], standard[3]]], dtype=float)
    full = analyse(grid)
    two = analyse_2k(standard)
    for term, effect in zip(full.terms, two.effects, strict=True):
        assert estimates(term)[-1] == pytest.approx(effect.estimate / 2)
        assert term.share == pytest.approx(effect.share)
    assert full.error_share == pytest.approx(two.error_share)


def test_one_launch_has_no_interval_no_error_and_no_f_test():
    analysis = analyse(MEANS[..., None])
    assert estimates(analysis.terms[0]) == pytest.approx([-4, 1, 3])
    assert analysis.error_share is None
    assert all(t.p_value is None and all(e.interval is None for e in t.effects)
               for t in analysis.terms)
    # SS with r = 1: 2 * 26, 3 * 8, 4, of 80.
    assert [t.share for t in analysis.terms] == pytest.approx([52 / 80, 24 / 80, 4 / 80])


def test_three_factors_shares_and_error_sum_to_one():
    rng = np.random.default_rng(3)
    analysis = analyse(rng.normal(10, 1, size=(3, 2, 2, 4)), replicates=200)
    assert len(analysis.terms) == 7
    assert sum(t.share for t in analysis.terms) + analysis.error_share == pytest.approx(1.0)
    for term in analysis.terms:
        # A term's effects add up to 0 along each of its factors.
        shape = [3, 2, 2]
        values = np.array(estimates(term)).reshape([shape[i] for i in term.factors])
        for axis in range(values.ndim):
            assert values.sum(axis=axis) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("shape", [(1, 2, 3), (7, 2, 3), (3, 2, 0)])
def test_a_factor_of_one_or_more_than_six_levels_is_refused(shape):
    with pytest.raises(ValueError, match="2 to 6 levels"):
        analyse(np.ones(shape))
