"""The raw-socket baseline: every middleware figure is read against it.

A middleware cell's baseline is the `rawtcp` cell of the same run with the
same reach (loopback IP: TCP, and UDP, against raw TCP; local IPC: Unix-domain
sockets, ZeroMQ's ipc and shared memory, against a raw Unix-domain socket),
the same operation and payload, the same client threads and background load,
and the same placement, idle hold, priority and repetition: the nearest thing
to the physical limit under the same conditions. UDP and shared memory have no
raw cell of their own, and are read against the raw socket a user would
otherwise reach for. A rawtcp cell of the same
experiment is preferred, so that a baseline is measured beside the cell it
judges; failing that, any experiment's. The number of servants is not a
condition: a raw socket has none, so a middleware with N servants is read
against the bare call. Collocated cells have no baseline: no socket is
involved.
"""

from .factors import FACTORS

BASELINE_DRIVER = "rawtcp"
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


def median_ratios(cells: list[tuple[dict, float | None]]) -> list[float | None]:
    """For each (factors, median) pair: its median over its baseline's, or None."""
    anywhere: dict[tuple, float] = {}
    beside: dict[tuple, float] = {}  # keyed by experiment too
    for factors, median in cells:
        key = baseline_key(factors)
        if factors.get("driver") == BASELINE_DRIVER and median and key is not None:
            anywhere.setdefault(key, median)
            beside[(factors.get("experiment"), key)] = median
    ratios = []
    for factors, median in cells:
        key = baseline_key(factors)
        base = beside.get((factors.get("experiment"), key), anywhere.get(key))
        is_baseline = factors.get("driver") == BASELINE_DRIVER
        ratios.append(median / base if base and median and not is_baseline else None)
    return ratios
