"""The raw-socket baseline: every middleware figure is read against it.

A middleware cell's baseline is the `rawtcp` cell of the same run with the
same reach (loopback IP: TCP, and UDP, against raw TCP; local IPC: Unix-domain
sockets and shared memory, against a raw Unix-domain socket),
the same operation and payload, the same client threads, background load and
offered load (a response time at 20,000 calls/s against the raw socket's at
20,000/s), and the same placement, idle hold and priority: the nearest thing
to the physical limit under the same conditions. UDP and shared memory have no raw
cell of their own, and are read against the raw socket a user would
otherwise reach for. A rawtcp cell of the same experiment is preferred, so
that a baseline is measured beside the cell it judges; failing that, any
experiment's. The number of servants is not a condition: a raw socket has
none, so a middleware with N servants is read against the bare call.
Collocated cells have no baseline: no socket is involved.

The ratio is taken launch by launch: the cell's k-th launch against the
baseline's k-th, which ran in the same block of the run's schedule
(launches/schedule.py), so that a slow stretch of the machine that hit both
cancels. The figure is the median of those ratios, with the interval of the
paired hierarchical bootstrap (launches/bootstrap.py).
"""

import numpy as np

from .factors import FACTORS
from .launches.estimate import Estimate, configuration_key, paired_ratio

BASELINE_DRIVER = "rawtcp"
# `unix` (omniORB) and `ipc` (ZeroMQ) are the Unix-domain socket's old names (spec_text.py),
# which runs stored before every driver said `uds` still carry.
TRANSPORT_FAMILY = {"tcp": "loopback IP", "udp": "loopback IP", "uds": "local IPC",
                    "unix": "local IPC", "ipc": "local IPC", "shm": "local IPC"}
# The rawtcp transport of each family, as the report names the baseline.
FAMILY_BASELINE = {"loopback IP": "tcp", "local IPC": "uds"}
# The factors a baseline must share with the cell it judges (factors.py, `baseline`).
CONDITIONS = tuple(factor for factor in FACTORS if factor.baseline)


def baseline_key(factors: dict) -> tuple | None:
    family = TRANSPORT_FAMILY.get(factors.get("transport"))
    if family is None or factors.get("mode") != "remote":
        return None
    # An unset factor is what the driver assumes: one client thread, no background load.
    return (family, *(f.level_or_unset(factors.get(f.name)) for f in CONDITIONS))


def baseline_indices(configurations: list[dict]) -> list[int | None]:
    """For each configuration (its factors), the index of its baseline among them, or None
    (no baseline in the list, a collocated cell, the baseline itself)."""
    anywhere: dict[tuple, int] = {}
    beside: dict[tuple, int] = {}  # keyed by experiment too
    for index, factors in enumerate(configurations):
        key = baseline_key(factors)
        if factors.get("driver") == BASELINE_DRIVER and key is not None:
            anywhere.setdefault(key, index)
            beside.setdefault((factors.get("experiment"), key), index)
    found = []
    for factors in configurations:
        key = baseline_key(factors)
        is_baseline = factors.get("driver") == BASELINE_DRIVER
        index = beside.get((factors.get("experiment"), key), anywhere.get(key))
        found.append(None if key is None or is_baseline else index)
    return found


def ratios_to_baseline(configurations: list[tuple[dict, dict[int, np.ndarray]]],
                       q: float = 50) -> list[Estimate | None]:
    """For each configuration (its factors, and its launches: launch number -> per-call
    times), its q-th percentile over its baseline's, launch by launch (the k-th launch
    against the baseline's k-th, which ran in the same block), with its interval; None
    where it has no baseline or they share no launch."""
    indices = baseline_indices([factors for factors, _ in configurations])
    ratios = []
    for (factors, launches), index in zip(configurations, indices, strict=True):
        if index is None or not launches or not configurations[index][1]:
            ratios.append(None)
            continue
        ratios.append(paired_ratio(launches, configurations[index][1], q,
                                   key=configuration_key(factors)))
    return ratios
