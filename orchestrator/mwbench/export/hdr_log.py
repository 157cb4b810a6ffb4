"""`--format hdr`: every cell as one histogram of an HdrHistogram interval log.

The log is the standard text format the HdrHistogram tools read (Java
`HistogramLogProcessor`, `HistogramLogReader`, the Python `hdrh` package, the
online plotters), so latency distributions can be merged, plotted and compared
with tools made for them. One line per cell, tagged with `hdr_tags.cell_tag`;
the header lists each tag with the cell's full factors, the cells that
failed, which have no histogram, and the runs' context (context.py) as one
JSON comment line.

Units. Values are per-call times in nanoseconds: each raw sample is divided by
its cell's batch size and rounded to the nearest ns, then recorded once (so a
batched cell counts batches, like its summary statistics). The histograms
track 1 ns .. 1 hour with 3 significant digits; a value above an hour (never
seen in practice) is clamped to it and the log says how many were.

Columns of a histogram line, as the Java HistogramLogWriter writes them:
start (seconds since BaseTime, the earliest exported run's start), interval
length (the cell's duration, s), the maximum value divided by 1,000,000 (so
in milliseconds: the writer's default maxValueUnitRatio), the compressed
base64 histogram. The tools skip the max column and recompute it from the
histogram. They also print values divided by 1,000,000 by default, as if
recorded in ns and shown in ms: pass `-outputValueUnitRatio 1` to
HistogramLogProcessor to print nanoseconds, or 1000 for microseconds.
"""

import json
from datetime import UTC, datetime
from typing import TextIO

import numpy as np
from hdrh.histogram import HdrHistogram

from ..store import Store
from .context import context
from .hdr_tags import cell_tag
from .records import cell_factors

LOWEST_NS = 1
HIGHEST_NS = 3600 * 10**9  # one hour
SIGNIFICANT_DIGITS = 3
MAX_VALUE_UNIT_RATIO = 1e6  # the tools' convention for the max column: ns shown as ms
LOG_FORMAT_VERSION = "1.3"  # the version the Java writer of HdrHistogram 2.2 writes
LEGEND = '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    base = min(_epoch_s(store.run(run_id)["started_utc"]) for run_id in run_ids)
    described, failed, notes, lines, tags = [], [], [], [], set()
    for run_id in run_ids:
        for row in store.cells(run_id, spec_order=True):
            factors = cell_factors(row)
            tag = cell_tag(run_id, factors)
            if tag in tags:  # cells of one run differ in their factors; a hand-made store may not
                tag += f"/cell={row['id']}"
            tags.add(tag)
            samples = store.samples(row["id"]) if row["status"] == "ok" else np.empty(0)
            if samples.size == 0:
                reason = (row["error"] or "no samples stored").splitlines()[0]
                failed.append((row["id"], f"#   cell {row['id']} {tag}: {reason}"))
                continue
            histogram, above = histogram_of(samples / (row["batch_size"] or 1))
            if above:
                notes.append(f"cell {row['id']}: {above} values above one hour clamped to it")
            full = {"run_id": run_id, "cell_id": row["id"], **factors,
                    "batch_size": row["batch_size"], "samples": int(samples.size)}
            described.append(f"#   {tag} {json.dumps(full)}")
            lines.append(_histogram_line(tag, histogram, _epoch_s(row["started_utc"]) - base,
                                         row["duration_s"]))
    if failed:
        described += ["# cells without a histogram (failed, so no samples):",
                      *(line for _, line in failed)]
    stream.write("\n".join([*_header(run_ids, base),
                            f"# context: {json.dumps(context(store, run_ids))}", *described,
                            *(f"# {note}" for note in notes), LEGEND, *lines]) + "\n")
    if failed:
        notes.append(f"skipped {len(failed)} failed cell(s), listed in the log's header: "
                     f"cell {', '.join(str(cell_id) for cell_id, _ in failed)}")
    return notes


def _header(run_ids: list[int], base: float) -> list[str]:
    started = datetime.fromtimestamp(base, UTC).isoformat()
    return [
        f"#[Histogram log format version {LOG_FORMAT_VERSION}]",
        f"#[mwbench export --format hdr of run(s) {' '.join(map(str, run_ids))}: per-call "
        f"latency in ns; {SIGNIFICANT_DIGITS} significant digits; max column in ms]",
        f"#[StartTime: {base:.3f} (seconds since epoch), {started}]",
        f"#[BaseTime: {base:.3f} (seconds since epoch)]",
        "# tags (run/experiment/driver/mode/transport/operation/payload/placement/hold/options/"
        "launch[/NAME=VALUE of each other factor the cell sets]), each with its cell's full "
        "factors:",
    ]


def _histogram_line(tag: str, histogram: HdrHistogram, start_s: float, length_s: float) -> str:
    # Java's getMaxValue() is the highest value equivalent to the largest one recorded.
    max_value = histogram.get_highest_equivalent_value(histogram.get_max_value())
    return (f"Tag={tag},{start_s:.3f},{length_s:.3f},{max_value / MAX_VALUE_UNIT_RATIO:.3f},"
            f"{histogram.encode().decode('ascii')}")


def histogram_of(per_call_ns: np.ndarray) -> tuple[HdrHistogram, int]:
    """An HdrHistogram of per-call times, and how many values were clamped to the range.

    Recording a million values one by one in Python takes seconds, so values
    are first rounded down to the lowest value of their HdrHistogram bucket
    (the same arithmetic the histogram does), counted with numpy, and each
    bucket is recorded once with its count: the same histogram, much faster.
    """
    histogram = HdrHistogram(LOWEST_NS, HIGHEST_NS, SIGNIFICANT_DIGITS)
    values = np.rint(np.asarray(per_call_ns, dtype=np.float64))
    clamped = int(np.count_nonzero(values > HIGHEST_NS))
    values = np.clip(values, 0, HIGHEST_NS).astype(np.int64)
    buckets, counts = np.unique(_bucket_floor(values, histogram), return_counts=True)
    for value, count in zip(buckets.tolist(), counts.tolist(), strict=True):
        histogram.record_value(value, count)
    return histogram, clamped


def _bucket_floor(values: np.ndarray, histogram: HdrHistogram) -> np.ndarray:
    """The lowest value equivalent to each value (HdrHistogram's get_lowest_equivalent_value).

    A value's bucket holds 2**shift values, where shift is how many bits the
    value has beyond the sub-bucket resolution; values are < 2**53, so float
    frexp gives their bit length exactly.
    """
    _, bit_length = np.frexp(values.astype(np.float64))
    resolution_bits = histogram.unit_magnitude + histogram.sub_bucket_half_count_magnitude + 1
    shift = np.maximum(bit_length.astype(np.int64) - resolution_bits, 0) \
        + histogram.unit_magnitude
    return (values >> shift) << shift


def _epoch_s(utc_iso: str) -> float:
    return datetime.fromisoformat(utc_iso).timestamp()
