"""What a factorial design reads in each launch of a cell: name, heading, printf format,
how to read it from a stored cell (factorial.py and factorial_levels.py share it)."""


def _difference(a, b):
    return None if a is None or b is None else a - b


METRICS = (
    ("median", "median µs per call", "%.3f", lambda row: row["p50_us"]),
    ("throughput", "calls/s", "%.0f", lambda row: row["throughput_per_s"]),
    ("jitter", "std µs (jitter)", "%.3f", lambda row: row["std_us"]),
    ("tail", "p99 − p50 µs", "%.3f", lambda row: _difference(row["p99_us"], row["p50_us"])),
)
