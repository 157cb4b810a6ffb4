"""The raw-socket baseline: every middleware figure is read against it.

A middleware cell's baseline is the `rawtcp` cell of the same run with the
same transport family (TCP with TCP, any Unix-domain socket with `uds`), the
same operation and payload, the same client threads and background load, and
the same placement, idle hold, priority and repetition: the nearest thing to
the physical limit under the same conditions. A rawtcp cell of the same
experiment is preferred, so that a baseline is measured beside the cell it
judges; failing that, any experiment's. The number of servants is not a
condition: a raw socket has none, so a middleware with N servants is read
against the bare call. Collocated cells have no baseline: no socket is
involved.
"""

BASELINE_DRIVER = "rawtcp"
TRANSPORT_FAMILY = {"tcp": "tcp", "uds": "unix-socket", "unix": "unix-socket",
                    "ipc": "unix-socket"}
_CONDITIONS = ("operation", "payload_bytes", "subscribers", "subscriber_processes", "placement",
               "idle_hold", "priority", "repetition")


def baseline_key(factors: dict) -> tuple | None:
    family = TRANSPORT_FAMILY.get(factors.get("transport"))
    if family is None or factors.get("mode") != "remote":
        return None
    # An unset factor is its default: one client thread, no background load.
    threads = factors.get("threads") or 1
    background = factors.get("background") or "none"
    return (family, threads, background, *(factors.get(name) for name in _CONDITIONS))


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
