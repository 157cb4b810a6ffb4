"""The report's tables: per-configuration summaries and the raw-socket baseline."""

import numpy as np

from ..baseline import median_ratios
from ..context_switches import per_1000_calls
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
    """Each remote middleware cell's median and p99 over the rawtcp cell of the same
    transport family, placement and repetition; the median of those ratios per configuration."""
    cells = [c for c in run.cells if c["status"] == "ok"]
    median_ratio = median_ratios([(c, c["p50_us"]) for c in cells])
    p99_ratio = median_ratios([(c, c["p99_us"]) for c in cells])
    grouped: dict[tuple, dict] = {}
    for cell, r50, r99 in zip(cells, median_ratio, p99_ratio, strict=True):
        if r50 is None:
            continue
        key = (cell["experiment"], cell["driver"], cell["transport"], cell["operation"],
               cell["payload_bytes"], cell["placement"], cell["idle_hold"],
               str(cell["options"]))
        row = grouped.setdefault(key, {
            "experiment": cell["experiment"], "driver": cell["driver"],
            "transport": cell["transport"], "operation": cell["operation"],
            "payload_bytes": cell["payload_bytes"], "placement": cell["placement"],
            "idle_hold": cell["idle_hold"], "options": cell["options"],
            "p50": [], "r50": [], "r99": []})
        row["p50"].append(cell["p50_us"])
        row["r50"].append(r50)
        row["r99"].append(r99)
    return [{**row, "p50": float(np.median(row["p50"])), "r50": float(np.median(row["r50"])),
             "r99": float(np.median(row["r99"])), "repetitions": len(row["r50"])}
            for row in grouped.values()]
