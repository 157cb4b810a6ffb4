"""`--format samples`: every raw sample as one CSV row, labelled with its cell.

This is for re-plotting with other tools (pandas, R, gnuplot): a figure of a
distribution needs the samples, not the summary. Columns:

    run_id, cell_id, <the factors of FACTOR_COLUMNS>, batch_size,
    sample_index, value_ns, per_call_ns[, series_<name>_ns ...]

`value_ns` is the sample exactly as the driver wrote it: the time of one batch
of `batch_size` calls. `per_call_ns` is value_ns / batch_size, the number every
summary statistic is computed from; it is written as the shortest decimal that
reads back as the same double, so value_ns / batch_size == per_call_ns holds
exactly after parsing. Factors a cell does not use are empty; options are JSON,
booleans `true`/`false` (csv_summary.csv_value, as every CSV format writes them).

When a cell of the exported runs has named series (the parts a driver timed
inside each sample, such as the phases of one assembly), each series is one
more column, `series_<name>_ns`, in the order the runs first list them: the
value of that series for the row's sample, as the driver wrote it (per
sample, not per call), empty for a cell without that series. A series name
is `[a-z][a-z0-9_]*`, so the columns are identifiers in pandas and R alike
and cannot take the name of another column. Runs without named series are
exported exactly as before.

Only cells that succeeded are exported: a failed cell's samples, if any, are
not results. The skipped cells are returned as a note for the user.

A cell can hold a million samples, so rows are streamed: the cell's label is
formatted once, and the samples go out in numpy chunks, never as one list.
Lines end with "\\n" (not the CSV default "\\r\\n"), which line tools prefer.
"""

import csv
import io
from typing import TextIO

import numpy as np

from ..named_series import NamedSeries
from ..store import FACTOR_COLUMNS, Store
from .csv_summary import csv_value
from .records import cell_factors

COLUMNS = ("run_id", "cell_id", *FACTOR_COLUMNS, "batch_size", "sample_index", "value_ns",
           "per_call_ns")
CHUNK = 65536  # rows formatted at a time: bounded memory, few write calls


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    series_names = list(dict.fromkeys(name for run_id in run_ids
                                      for name in store.series_names(run_id)))
    csv.writer(stream, lineterminator="\n").writerow(
        [*COLUMNS, *(series_column(name) for name in series_names)])
    failed, empty = [], []
    for run_id in run_ids:
        for row in store.cells(run_id, spec_order=True):
            if row["status"] != "ok":
                failed.append(row["id"])
                continue
            samples = store.samples(row["id"])
            if samples.size == 0:
                empty.append(row["id"])
                continue
            batch_size = row["batch_size"] or 1
            label = [run_id, row["id"], *cell_factors(row).values(), batch_size]
            named = store.named_series(row["id"]) if series_names else NamedSeries()
            _write_samples(stream, _csv_prefix(label), samples, batch_size,
                           [named.get(name) for name in series_names])
    notes = [f"skipped {len(failed)} failed cell(s), no rows: cell {_ids(failed)}"] if failed \
        else []
    if empty:
        notes.append(f"skipped {len(empty)} cell(s) without stored samples: cell {_ids(empty)}")
    return notes


def _ids(cell_ids: list[int]) -> str:
    return ", ".join(map(str, cell_ids))


def _csv_prefix(values: list) -> str:
    """The label columns of a cell, quoted as CSV, ready to prefix each of its rows."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow([csv_value(v) for v in values])
    return buffer.getvalue() + ","


def series_column(name: str) -> str:
    """The column of a named series."""
    return f"series_{name}_ns"


def _write_samples(stream: TextIO, prefix: str, samples: np.ndarray, batch_size: int,
                   named: list[np.ndarray | None]) -> None:
    """The rows of one cell; `named` holds, per series column, the cell's values of that
    series (one per sample) or None for a series the cell does not have."""
    for start in range(0, samples.size, CHUNK):
        chunk = samples[start:start + CHUNK]
        values = chunk.tolist()
        # With batch 1 the per-call time is the sample itself, written as the same integer.
        per_call = values if batch_size == 1 else (chunk / batch_size).tolist()
        stream.write("".join(
            f"{prefix}{index},{value},{call!r}{tail}\n"
            for index, value, call, tail in zip(range(start, start + chunk.size), values,
                                                per_call, _series_fields(named, start,
                                                                         chunk.size),
                                                strict=True)
        ))


def _series_fields(named: list[np.ndarray | None], start: int, count: int) -> list[str]:
    """The named-series fields of `count` rows from sample `start` on, each with its
    leading commas: "" without series columns, so such exports keep their bytes."""
    if not named:
        return [""] * count
    columns = [[""] * count if values is None else
               [str(v) for v in values[start:start + count].tolist()] for values in named]
    return ["," + ",".join(fields) for fields in zip(*columns, strict=True)]
