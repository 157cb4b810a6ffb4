"""Parallelism: the time each thread waits per call, and the rate of the whole system.

Two numbers per thread count, as in the Open CORBA Benchmarking suite: the
invocation time a thread sees (the median over the calls of all threads),
which grows whenever a thread waits for another; and the invocation rate
of the system (all calls of all threads over the measured wall time), which
grows while the machine has parallelism to give and falls slowly after.
How evenly the threads were served is the spread of their own medians.

Points with more busy threads than the machine's CPUs (crowding.py has the
rule) are drawn hollow: there, threads also wait for a CPU.
"""

import numpy as np

from ...crowding import busy_threads
from ..data import Configuration, Run
from ..figures import time_and_rate


def series(run: Run) -> list[dict]:
    cpus = run.environment.get("machine", {}).get("cpu_count") or 0
    found = []
    for experiment in run.sweeping("threads"):
        for name, members in experiment.series("threads"):
            points = [_point(c, cpus) for c in members]
            found.append({"experiment": experiment.name, "series": name, "points": points})
    return found


def _point(c: Configuration, cpus: int) -> dict:
    f = c.factors
    busy = busy_threads(f["mode"], f["threads"], f["background"])
    medians = _thread_medians(c)
    return {
        "threads": f["threads"], "per_thread_us": c.percentile(50), "p99_us": c.percentile(99),
        "rate": float(np.median(c.throughput_per_s)) if c.throughput_per_s else None,
        "busy": busy.total, "crowded": 0 < cpus < busy.total,
        "thread_medians": (min(medians), max(medians)) if medians else None,
    }


def _thread_medians(c: Configuration) -> list[float]:
    """Each thread's own median, from the series of each launch's result header."""
    medians, offset = [], 0
    for cell in c.cells:
        series = (cell["measurer_header"] or {}).get("series") or []
        count = int(cell["samples"] or 0)
        start = offset
        for s in series:
            part = c.per_call_us[start:start + s["count"]]
            if part.size:
                medians.append(float(np.median(part)))
            start += s["count"]
        offset += count
    return medians


def figure(found: list[dict]) -> str:
    return time_and_rate(found, "threads", "per_thread_us", "rate", count_label="client threads",
                         time_label="µs per call seen by a thread (median)",
                         rate_label="calls/s of the whole system")
