"""The 2^k r effects against values worked out by hand (Jain, chapters 17 and 18).

The 2x2 design used throughout, three launches per cell (µs), A fastest:

    cell   A  B   launches     mean
    0      -  -   10 11 12        11
    1      +  -   20 21 22        21
    2      -  +   14 15 16        15
    3      +  +   30 31 32        31

    A  = (21 + 31)/2 - (11 + 15)/2 = 13        qA  = 6.5
    B  = (15 + 31)/2 - (11 + 21)/2 = 7         qB  = 3.5
    AB = ((31 - 15) - (21 - 11))/2 = 3         qAB = 1.5
    SS = 2^2 * 3 * q^2: 507, 147, 27; SSE = 4 cells * (1 + 0 + 1) = 8; SST = 689
"""

import numpy as np
import pytest

from mwbench.factorial_design import analyse, effect_terms, sign_table

KNOWN = [[10, 11, 12], [20, 21, 22], [14, 15, 16], [30, 31, 32]]


def test_effects_are_the_contrasts_worked_out_by_hand():
    analysis = analyse(KNOWN)
    assert [e.factors for e in analysis.effects] == [(0,), (1,), (0, 1)]
    assert [e.estimate for e in analysis.effects] == pytest.approx([13.0, 7.0, 3.0])
    assert analysis.cell_means == pytest.approx([11, 21, 15, 31])
    assert analysis.grand_mean == pytest.approx(19.5)
    assert analysis.launches == 3


def test_allocation_of_variation_matches_the_hand_computation_and_sums_to_one():
    analysis = analyse(KNOWN)
    shares = [e.share for e in analysis.effects]
    assert shares == pytest.approx([507 / 689, 147 / 689, 27 / 689])
    assert analysis.error_share == pytest.approx(8 / 689)
    assert sum(shares) + analysis.error_share == pytest.approx(1.0)


def test_with_launches_each_effect_has_a_bootstrap_interval_around_it():
    analysis = analyse(KNOWN)
    for effect in analysis.effects:
        low, high = effect.interval
        assert low <= effect.estimate <= high
        assert low < high
    # Every effect is far from 0 next to a spread of ±1 µs within the cells.
    assert [e.significant for e in analysis.effects] == [True, True, True]


def test_an_interaction_lost_in_the_launches_is_not_significant():
    # No interaction in the means (A adds 10 at both levels of B), a wide spread inside.
    analysis = analyse([[5, 15], [15, 25], [25, 35], [35, 45]])
    interaction = analysis.effects[2]
    assert interaction.estimate == pytest.approx(0.0)
    assert interaction.interval[0] < 0 < interaction.interval[1]
    assert interaction.significant is False


def test_the_interval_is_reproducible():
    assert analyse(KNOWN).effects[0].interval == analyse(KNOWN).effects[0].interval


def test_one_launch_has_no_interval_and_no_error_term():
    analysis = analyse([[11], [21], [15], [31]])
    assert [e.estimate for e in analysis.effects] == pytest.approx([13.0, 7.0, 3.0])
    assert all(e.interval is None and e.significant is None for e in analysis.effects)
    assert analysis.error_share is None
    # Without an error term the effects explain everything: 169 : 49 : 9 of 227.
    assert [e.share for e in analysis.effects] == pytest.approx([169 / 227, 49 / 227, 9 / 227])


def test_nothing_varies_no_share():
    analysis = analyse([[3, 3], [3, 3], [3, 3], [3, 3]])
    assert all(e.estimate == 0 and e.share is None for e in analysis.effects)


def test_three_factors_give_seven_effects_whose_shares_with_the_error_sum_to_one():
    rng = np.random.default_rng(1)
    # A known model: A adds 4, C adds 2 only when B is high (so B, C and BC are all 1).
    means = [4 * (cell & 1) + 2 * ((cell >> 1 & 1) * (cell >> 2 & 1)) for cell in range(8)]
    y = np.array(means, float)[:, None] + rng.normal(0, 0.1, size=(8, 4))
    analysis = analyse(y)
    assert [e.factors for e in analysis.effects] == effect_terms(3)
    assert len(analysis.effects) == 7
    named = {e.factors: e.estimate for e in analysis.effects}
    assert named[(0,)] == pytest.approx(4, abs=0.2)
    for terms in ((1,), (2,), (1, 2)):
        assert named[terms] == pytest.approx(1, abs=0.2)
    assert named[(0, 1, 2)] == pytest.approx(0, abs=0.2)
    assert sum(e.share for e in analysis.effects) + analysis.error_share == pytest.approx(1.0)


def test_sign_table_is_the_standard_order():
    assert sign_table(2).tolist() == [[-1, -1, 1], [1, -1, -1], [-1, 1, -1], [1, 1, 1]]


@pytest.mark.parametrize("observations", [[[1], [2]], [[1]] * 16, [1, 2, 3, 4]])
def test_only_four_or_eight_cells_are_a_design(observations):
    with pytest.raises(ValueError):
        analyse(observations)
