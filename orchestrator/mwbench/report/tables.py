"""The report's tables: per-configuration summaries and the raw-socket baseline."""

import numpy as np

from ..baseline import (
    BASELINE_DRIVER,
    FAMILY_BASELINE,
    TRANSPORT_FAMILY,
    baseline_key,
    ratios_to_baseline,
)
from ..context_switches import per_1000_calls
from ..factors import CONFIGURATION, other_factors
from ..launches.bootstrap import launch_figure
from ..launches.estimate import Estimate
from .data import Experiment, Run
from .open_loop import rates, schedule


def summary_rows(experiment: Experiment) -> list[dict]:
    """Per configuration: each percentile as the median over launches of each launch's,
    p50 and p99 with their intervals; min and max over every call of every launch."""
    rows = []
    for c in experiment.configurations:
        launches = list(c.launches.values())
        p1, p25, p75, p999 = (launch_figure(launches, q) for q in (1, 25, 75, 99.9))
        batch = {cell["batch_size"] for cell in c.cells}
        client_switches, server_switches = _switches(c.cells)
        rows.append({
            "label": c.label, "launches": len(launches), "samples": int(c.per_call_us.size),
            "batch": "/".join(str(b) for b in sorted(batch)),
            "min": float(c.per_call_us.min()), "p1": p1, "p25": p25, "p50": c.estimate(50),
            "p75": p75, "p99": c.estimate(99), "p999": p999, "max": float(c.per_call_us.max()),
            "throughput": float(np.median(c.throughput_per_s)) if c.throughput_per_s else None,
            "client_switches": client_switches, "server_switches": server_switches,
            # An open loop's own account of its load (open_loop.py); None in a closed loop.
            "open": rates(c.cells) if schedule(c.factors.get("load")) else None,
        })
    return rows


def _switches(cells: list[dict]) -> tuple[float | None, float | None]:
    """Median over the launches of each end's context switches per 1,000 calls."""
    pairs = [per_1000_calls(cell.get("measurer_header"), cell.get("server_header"))
             for cell in cells]
    client = [p[0] for p in pairs if p[0] is not None]
    server = [p[1] for p in pairs if p[1] is not None]
    return (float(np.median(client)) if client else None,
            float(np.median(server)) if server else None)


def baseline_rows(run: Run) -> list[dict]:
    """Each remote middleware configuration's median and p99 over those of its raw-socket
    baseline (baseline.py: same reach, operation, payload and placement), launch by launch,
    with intervals; sorted by operation and payload, then from the closest to the raw
    socket to the farthest: the first table a reader wants. The baselines themselves are
    rows of ratio 1."""
    # Samples a driver timed itself (a oneway call's delivery, timed_by: driver) are one-way
    # times, not round trips: no raw round trip judges them.
    configurations = [(e, c) for e in run.experiments for c in e.configurations
                      if c.ok and not _timed_by_driver(c.cells)]
    pairs = [({**c.factors, "experiment": e.name}, c.launches) for e, c in configurations]
    r50s = ratios_to_baseline(pairs, 50)
    r99s = ratios_to_baseline(pairs, 99)
    rows = []
    for (_, c), (factors, _), r50, r99 in zip(configurations, pairs, r50s, r99s, strict=True):
        is_raw = c.factors["driver"] == BASELINE_DRIVER and baseline_key(factors) is not None
        if r50 is None and not is_raw:
            continue
        if is_raw:  # the raw socket itself: the row every other is read against
            r50 = r99 = Estimate(1.0, len(c.launches), 1.0, 1.0)
        rows.append({
            **{name: factors[name] for name in CONFIGURATION},
            "raw": FAMILY_BASELINE[TRANSPORT_FAMILY[c.factors["transport"]]],
            "other": " ".join(other_factors(factors, BASELINE_COLUMNS)), "p50": c.estimate(50),
            "p99": c.percentile(99), "r50": r50, "r99": r99, "launches": len(c.launches),
            "indistinguishable": not is_raw and r50.includes(1.0), "is_raw": is_raw})
    return sorted(rows, key=lambda r: (_first_seen(run, r["operation"]), r["payload_bytes"] or 0,
                                       r["r50"].value, not r["is_raw"]))


def _timed_by_driver(cells: list[dict]) -> bool:
    return any((cell.get("measurer_header") or {}).get("timed_by") == "driver" for cell in cells)


def collocated_rows(run: Run) -> list[dict]:
    """Collocated configurations (no socket, so no baseline): median and p99 in µs, each
    the median over launches with its interval, sorted as the baseline rows are."""
    rows = []
    for experiment in run.experiments:
        for c in experiment.configurations:
            if not c.ok or c.factors["mode"] != "collocated":
                continue
            factors = {**c.factors, "experiment": experiment.name}
            rows.append({**{name: factors[name] for name in CONFIGURATION},
                         "other": " ".join(other_factors(factors, COLLOCATED_COLUMNS)),
                         "p50": c.estimate(50),
                         "p99": c.estimate(99), "launches": len(c.launches)})
    return sorted(rows, key=lambda r: (_first_seen(run, r["operation"]), r["payload_bytes"] or 0,
                                       r["p50"].value))


def _first_seen(run: Run, operation: str) -> int:
    """Operations in the order the run measured them (a round trip before its payloads)."""
    return next(i for i, cell in enumerate(run.cells) if cell["operation"] == operation)


# The factors each table gives a column (report.html.j2); every other factor a
# configuration sets is in its "other factors".
BASELINE_COLUMNS = ("driver", "mode", "transport", "operation", "payload_bytes", "placement",
                    "idle_hold", "experiment")
COLLOCATED_COLUMNS = ("driver", "mode", "transport", "operation", "payload_bytes",
                      "placement")

