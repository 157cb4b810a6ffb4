"""The order of a run's launches: randomised blocks, reproducible from a seed.

The machine passes through slow stretches of several seconds that hit every
process at once. Were each configuration's launches run one after another,
a stretch would fall on one configuration's launches and make it look slow;
were the configurations always run in the spec's order, the same
configurations would always sit next to each other. So the k-th launches
of all configurations form block k, every block runs before the next
(every configuration's k-th launch before any configuration's (k+1)-th), and
within a block the order is a random permutation drawn from the run's seed.
A stretch then hits a random few configurations of one block, adding to the
spread between launches that the intervals already count, instead of biasing
one configuration; and the k-th launch of a cell ran in the same block as
the k-th launch of its baseline, which the paired ratios use.

The seed is stored with the run (and printed), so `mwbench run --seed N`
repeats the order exactly.
"""

import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")
SEED_BITS = 32


def new_seed() -> int:
    """A seed for a run that was given none."""
    return secrets.randbits(SEED_BITS)


def randomised_blocks(configurations: Sequence[T], launches_of: Callable[[T], int],
                      seed: int) -> list[tuple[int, T]]:
    """(launch number from 1, configuration) in the order to run them: block k holds the
    k-th launch of every configuration that has k or more, shuffled by `seed`."""
    rng = np.random.default_rng(seed)
    order = []
    for launch in range(1, max((launches_of(c) for c in configurations), default=0) + 1):
        block = [c for c in configurations if launches_of(c) >= launch]
        order += [(launch, block[i]) for i in rng.permutation(len(block))]
    return order
