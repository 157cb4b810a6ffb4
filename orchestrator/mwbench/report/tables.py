"""The report's tables: per-configuration summaries and the raw-socket baseline."""

import json

import numpy as np

from ..baseline import (
    BASELINE_DRIVER,
    FAMILY_BASELINE,
    TRANSPORT_FAMILY,
    baseline_key,
    median_ratios,
)
from ..comparison.runs import extra_factors
from ..context_switches import per_1000_calls
from ..factors import NAMES
from .data import Experiment, Run


def summary_rows(experiment: Experiment) -> list[dict]:
    rows = []
    for c in experiment.configurations:
        p1, p25, p50, p75, p99, p999 = np.percentile(c.per_call_us, [1, 25, 50, 75, 99, 99.9])
        batch = {cell["batch_size"] for cell in c.cells}
        client_switches, server_switches = _switches(c.cells)
        rows.append({
            "label": c.label, "repetitions": len(c.cells), "samples": int(c.per_call_us.size),
            "batch": "/".join(str(b) for b in sorted(batch)),
            "min": float(c.per_call_us.min()), "p1": p1, "p25": p25, "p50": p50, "p75": p75,
            "p99": p99, "p999": p999, "max": float(c.per_call_us.max()),
            "throughput": float(np.median(c.throughput_per_s)) if c.throughput_per_s else None,
            "client_switches": client_switches, "server_switches": server_switches,
        })
    return rows


def _switches(cells: list[dict]) -> tuple[float | None, float | None]:
    """Median over the repetitions of each end's context switches per 1,000 calls."""
    pairs = [per_1000_calls(cell.get("measurer_header"), cell.get("server_header"))
             for cell in cells]
    client = [p[0] for p in pairs if p[0] is not None]
    server = [p[1] for p in pairs if p[1] is not None]
    return (float(np.median(client)) if client else None,
            float(np.median(server)) if server else None)


def baseline_rows(run: Run) -> list[dict]:
    """Each remote middleware configuration's median and p99 over the rawtcp cell of the
    same transport family, placement and repetition (the median of those ratios over its
    repetitions), sorted by operation and payload, then from the closest to the raw socket
    to the farthest: the first table a reader wants."""
    cells = [c for c in run.cells if c["status"] == "ok"]
    median_ratio = median_ratios([(c, c["p50_us"]) for c in cells])
    p99_ratio = median_ratios([(c, c["p99_us"]) for c in cells])
    grouped: dict[tuple, dict] = {}
    for cell, r50, r99 in zip(cells, median_ratio, p99_ratio, strict=True):
        if cell["driver"] == BASELINE_DRIVER and baseline_key(cell) is not None:
            r50 = r99 = 1.0  # the raw socket itself: the row every other is read against
        if r50 is None:
            continue
        key = tuple(_key(cell[name]) for name in CONFIGURATION)
        row = grouped.setdefault(key, {
            **{name: cell[name] for name in CONFIGURATION},
            "raw": FAMILY_BASELINE[TRANSPORT_FAMILY[cell["transport"]]],
            "other": " ".join(extra_factors(cell)), "p50": [], "p99": [], "r50": [], "r99": []})
        row["p50"].append(cell["p50_us"])
        row["p99"].append(cell["p99_us"])
        row["r50"].append(r50)
        row["r99"].append(r99)
    rows = [{**row, **{key: float(np.median(row[key])) for key in ("p50", "p99", "r50", "r99")},
             "repetitions": len(row["r50"])} for row in grouped.values()]
    return sorted(rows, key=lambda r: (_first_seen(run, r["operation"]), r["payload_bytes"] or 0,
                                       r["r50"], r["driver"] != BASELINE_DRIVER))


def collocated_rows(run: Run) -> list[dict]:
    """Collocated configurations (no socket, so no baseline): median and p99 in µs over
    the repetitions, sorted as the baseline rows are."""
    grouped: dict[tuple, dict] = {}
    for cell in run.cells:
        if cell["status"] != "ok" or cell["mode"] != "collocated":
            continue
        key = tuple(_key(cell[name]) for name in CONFIGURATION)
        row = grouped.setdefault(key, {**{name: cell[name] for name in CONFIGURATION},
                                       "other": " ".join(extra_factors(cell)),
                                       "p50": [], "p99": []})
        row["p50"].append(cell["p50_us"])
        row["p99"].append(cell["p99_us"])
    rows = [{**row, "p50": float(np.median(row["p50"])), "p99": float(np.median(row["p99"])),
             "repetitions": len(row["p50"])} for row in grouped.values()]
    return sorted(rows, key=lambda r: (_first_seen(run, r["operation"]), r["payload_bytes"] or 0,
                                       r["p50"]))


def _first_seen(run: Run, operation: str) -> int:
    """Operations in the order the run measured them (a round trip before its payloads)."""
    return next(i for i, cell in enumerate(run.cells) if cell["operation"] == operation)


# A configuration: every factor but the repetition (factors.py).
CONFIGURATION = tuple(name for name in NAMES if name != "repetition")


def _key(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value
