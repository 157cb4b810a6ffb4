"""Exports of stored results for other tools, one module per output format.

Every format is one function of the same shape, `write(store, run_ids,
stream) -> notes`: it reads what it needs from the store, writes text to the
stream, and returns short notes for the user (cells it skipped, values it
clamped). `mwbench export` picks the function by name from FORMATS and knows
nothing else about it; adding a format is one module and one line here.

    json, csv   one summary record per cell, a launch (records.py: the export contract)
    configurations, configurations-csv
                one record per configuration: figures over its launches with their
                intervals, and its ratio to the raw socket (configurations.py)
    context     the runs' context (machine, commit, spec, defaults: context.py), which
                the JSON formats carry beside their records
    hdr         one HdrHistogram interval log, a tagged histogram per cell
    samples     every raw sample, one CSV row each, with its cell's factors

`cell_records` stays importable from here (`from mwbench.export import
cell_records`) for the benchmarks and the report.
"""

from typing import Protocol, TextIO

from ..store import Store
from . import configurations, context, csv_summary, hdr_log, json_summary, samples_csv
from .records import EXPORT_KEYS, cell_factors, cell_records


class Writer(Protocol):
    def __call__(self, store: Store, run_ids: list[int], stream: TextIO) -> list[str]: ...


FORMATS: dict[str, Writer] = {
    "json": json_summary.write,
    "csv": csv_summary.write,
    "configurations": configurations.write_json,
    "configurations-csv": configurations.write_csv,
    "hdr": hdr_log.write,
    "samples": samples_csv.write,
    "context": context.write,
}

__all__ = ["EXPORT_KEYS", "FORMATS", "Writer", "cell_factors", "cell_records"]
