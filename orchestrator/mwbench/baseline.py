"""The raw-socket baseline: every middleware figure is read against it.

A middleware cell's baseline is the `rawtcp` cell of the same run with the
same transport family (TCP with TCP, any Unix-domain socket with `uds`), the
same operation and payload, and the same placement, idle hold, priority and
repetition: the nearest thing to the physical limit under the same
conditions. Collocated cells have no baseline: no socket is involved.
"""

BASELINE_DRIVER = "rawtcp"
TRANSPORT_FAMILY = {"tcp": "tcp", "uds": "unix-socket", "unix": "unix-socket",
                    "ipc": "unix-socket"}
_CONDITIONS = ("operation", "payload_bytes", "placement", "idle_hold", "priority", "repetition")


def baseline_key(factors: dict) -> tuple | None:
    family = TRANSPORT_FAMILY.get(factors.get("transport"))
    if family is None or factors.get("mode") != "remote":
        return None
    return (family, *(factors.get(name) for name in _CONDITIONS))


def median_ratios(cells: list[tuple[dict, float | None]]) -> list[float | None]:
    """For each (factors, median) pair: its median over its baseline's, or None."""
    baselines = {
        baseline_key(factors): median
        for factors, median in cells
        if factors.get("driver") == BASELINE_DRIVER and median
    }
    ratios = []
    for factors, median in cells:
        base = baselines.get(baseline_key(factors))
        is_baseline = factors.get("driver") == BASELINE_DRIVER
        ratios.append(median / base if base and median and not is_baseline else None)
    return ratios
