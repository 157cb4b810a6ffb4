"""Summary statistics of one cell, computed from every raw sample.

Percentiles use numpy's default (linear interpolation between closest ranks).
Throughput is calls per second of the measured loop's wall time, as the
driver timed it, so the time spent outside the loop never dilutes it.
"""

from dataclasses import asdict, dataclass

import numpy as np

PERCENTILE_METHOD = "linear"


@dataclass(frozen=True)
class CellStats:
    samples: int
    min_us: float
    p25_us: float
    p50_us: float
    p75_us: float
    p90_us: float
    p99_us: float
    p999_us: float
    max_us: float
    mean_us: float
    std_us: float
    throughput_per_s: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def summarize(per_call_ns: np.ndarray, calls: int, measured_wall_ns: int) -> CellStats:
    """Statistics of per-call times (ns) in µs; `calls` were made in `measured_wall_ns`."""
    if per_call_ns.size == 0:
        raise ValueError("no samples to summarize")
    us = per_call_ns / 1000.0
    p25, p50, p75, p90, p99, p999 = np.percentile(
        us, [25, 50, 75, 90, 99, 99.9], method=PERCENTILE_METHOD
    )
    throughput = calls / (measured_wall_ns / 1e9) if measured_wall_ns > 0 else None
    return CellStats(
        samples=int(us.size),
        min_us=float(us.min()),
        p25_us=float(p25),
        p50_us=float(p50),
        p75_us=float(p75),
        p90_us=float(p90),
        p99_us=float(p99),
        p999_us=float(p999),
        max_us=float(us.max()),
        mean_us=float(us.mean()),
        std_us=float(us.std(ddof=1)) if us.size > 1 else 0.0,
        throughput_per_s=throughput,
    )
