"""The combined-factor estimate checked against the mixture experiment.

For every combination the mixture measured, the estimate is built from the
single-factor sweeps of the same run (estimate.py) and set against the
measured median. The error is (estimated - measured) / measured; its mean
and median in absolute value summarize how far the factors combine as the
formula assumes. The paper reports about 7% mean and 3% median for its
best case, and warns that the estimate fails once the factors exhaust a
shared resource, the CPU above all: crowded combinations (more busy
threads than CPUs) are therefore summarized apart as well.
"""

import numpy as np

from ...crowding import busy_threads
from ...estimate import mixture_rows
from ..data import Run
from ..figures import plt, to_svg


def table(run: Run) -> dict | None:
    rows = mixture_rows(run.cells)
    if not rows:
        return None
    cpus = run.environment.get("machine", {}).get("cpu_count") or 0
    views = []
    for row in rows:
        f = row.factors
        busy = busy_threads(f["mode"], f["threads"], f["background"])
        views.append({
            "experiment": f["experiment"], "driver": f["driver"], "operation": f["operation"],
            "transport": f["transport"], "placement": f["placement"],
            "payload_bytes": f["payload_bytes"] or 0, "servants": f["servants"] or 1,
            "threads": f["threads"] or 1, "options": f["options"],
            "measured": row.measured_us, "cells": row.cell_ids,
            "estimated": row.estimate.estimate_us if row.estimate else None,
            "inputs": sorted({i for p in row.estimate.terms for i in p.cell_ids})
            if row.estimate else [],
            "error": row.relative_error, "reason": row.error,
            "crowded": 0 < cpus < busy.total,
        })
    return {"rows": views, "all": _summary(views),
            "uncrowded": _summary([v for v in views if not v["crowded"]]),
            "crowded": _summary([v for v in views if v["crowded"]])}


def _summary(views: list[dict]) -> dict | None:
    errors = np.array([abs(v["error"]) for v in views if v["error"] is not None])
    if errors.size == 0:
        return None
    return {"count": int(errors.size), "mean": float(errors.mean()),
            "median": float(np.median(errors)), "max": float(errors.max())}


def figure(summary: dict) -> str:
    shown, axes = plt.subplots(figsize=(6.5, 5))
    rows = [r for r in summary["rows"] if r["estimated"] is not None]
    for crowded, face, name in ((False, None, "every busy thread had a CPU"),
                                (True, "white", "crowded (more busy threads than CPUs)")):
        chosen = [r for r in rows if r["crowded"] == crowded]
        if chosen:
            axes.scatter([r["measured"] for r in chosen], [r["estimated"] for r in chosen],
                         s=22, facecolors=face or "#1f77b4", edgecolors="#1f77b4", label=name)
    values = [v for r in rows for v in (r["measured"], r["estimated"])]
    low, high = min(values) * 0.9, max(values) * 1.1
    axes.plot([low, high], [low, high], color="#888", linewidth=1, label="estimate = measured")
    for factor in (0.9, 1.1):
        axes.plot([low, high], [low * factor, high * factor], color="#bbb", linewidth=0.8,
                  linestyle=":")
    if high / low > 20:
        axes.set_xscale("log")
        axes.set_yscale("log")
    axes.set_xlabel("measured µs per call (median)")
    axes.set_ylabel("estimated µs per call")
    axes.legend(fontsize=8, loc="upper left")
    return to_svg(shown)
