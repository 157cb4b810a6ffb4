"""The order of a run's launches: randomised blocks from a seed."""

from collections import Counter

from mwbench.launches.schedule import new_seed, randomised_blocks


def order(configurations, launches, seed):
    return randomised_blocks(configurations, lambda c: launches[c], seed)


def test_every_kth_launch_runs_before_any_next_one():
    launches = {"a": 3, "b": 3, "c": 1, "d": 2}
    scheduled = order(list(launches), launches, seed=7)
    assert Counter(c for _, c in scheduled) == Counter(launches)
    numbers = [k for k, _ in scheduled]
    assert numbers == sorted(numbers)  # block 1, then block 2, then block 3
    for k in (1, 2, 3):
        assert sorted(c for n, c in scheduled if n == k) == sorted(
            c for c, count in launches.items() if count >= k)


def test_the_seed_fixes_the_order_and_another_seed_changes_it():
    configurations = [f"c{i}" for i in range(12)]
    launches = dict.fromkeys(configurations, 4)
    assert order(configurations, launches, 1) == order(configurations, launches, 1)
    assert order(configurations, launches, 1) != order(configurations, launches, 2)


def test_within_a_block_every_position_is_as_likely_for_every_configuration():
    configurations = ["a", "b", "c", "d"]
    launches = dict.fromkeys(configurations, 1)
    first = Counter(order(configurations, launches, seed)[0][1] for seed in range(4000))
    # 1,000 expected each; the standard error of a count is about 27.
    assert all(850 < first[c] < 1150 for c in configurations)


def test_nothing_to_order():
    assert randomised_blocks([], lambda c: 1, 3) == []


def test_new_seeds_fit_the_stored_range_and_differ():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) > 1 and all(0 <= s < 2**32 for s in seeds)
