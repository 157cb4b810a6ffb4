"""Fan-out: one publisher, N subscribers, and what each added subscriber costs.

A fan-out sample is the time from the publisher's send to the last
subscriber's reply (docs/driver-contract-fanout.md), the one-to-many latency
of the container-managed pub/sub study. Two numbers per subscriber count:
that latency, and the events delivered per second (subscribers × events
published per second), which says whether the middleware delivers to more
subscribers in parallel or one after another. The cost of one more
subscriber is the slope of the median against N, fitted by least squares
over the line's points: a raw socket that writes N copies pays one write and
one wake-up per subscriber, so a middleware whose slope is below that
delivers in parallel or shares the copy.

Points with more busy threads than the machine's CPUs are drawn hollow
(crowding.py: every event wakes all N subscribers at once).
"""

import numpy as np

from ...crowding import busy_threads
from ..data import Configuration, Run
from ..figures import time_and_rate


def series(run: Run) -> list[dict]:
    cpus = run.environment.get("machine", {}).get("cpu_count") or 0
    found = []
    for experiment in run.experiments:
        for name, members in experiment.series("subscribers"):
            members = _with_single_subscriber(experiment.configurations, members)
            points = [_point(c, cpus) for c in members]
            counts = np.array([p["subscribers"] for p in points], dtype=float)
            medians = np.array([p["p50_us"] for p in points])
            slope = float(np.polyfit(counts, medians, 1)[0]) if len(points) > 1 else None
            found.append({"experiment": experiment.name, "series": name, "points": points,
                          "per_subscriber_us": slope})
    return found


def _with_single_subscriber(configurations: list[Configuration],
                            members: list[Configuration]) -> list[Configuration]:
    """A line of one process per subscriber starts at N = 2: with one subscriber the
    two arrangements are one cell, stored as `one`. Its point belongs to both lines."""
    first = members[0].factors
    if first["subscriber_processes"] != "each" or first["subscribers"] == 1:
        return members
    wanted = {**first, "subscribers": 1, "subscriber_processes": "one"}
    single = next((c for c in configurations if c.ok and c.factors == wanted), None)
    return [single, *members] if single is not None else members


def _point(c: Configuration, cpus: int) -> dict:
    f = c.factors
    rate = float(np.median(c.throughput_per_s)) if c.throughput_per_s else None
    busy = busy_threads(f["mode"], f["threads"], f["background"], f["subscribers"])
    return {
        "subscribers": f["subscribers"], "p50_us": c.percentile(50),
        "p99_us": c.percentile(99),
        "events_per_s": rate * f["subscribers"] if rate else None,
        "busy": busy.total, "crowded": 0 < cpus < busy.total,
    }


def figure(found: list[dict]) -> str:
    return time_and_rate(found, "subscribers", "p50_us", "events_per_s", log2=True,
                         count_label="subscribers", time_label="µs to the last reply (median)",
                         rate_label="events delivered per second")
