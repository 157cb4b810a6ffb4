"""Stored cells as plain records: what every export format starts from.

`cell_records` gives one summary record per cell, with the keys of the export
contract (README, "Reading results"): the run and its factors, the statistics,
the status and error (plus, since schema 2, the experiment's estimate `role`
and the background `load_generator`, and the context switches of each end
per 1,000 calls, from the result headers: context_switches.py; since schema
3 the middleware's `daemon`). Factors a
cell does not use are None; `background` is `none` for a cell measured
without background load. `cell_factors` gives just the identifying factors
of a stored row, decoded the same way, so the per-sample formats label their
rows exactly as the summaries do.
"""

import json
import sqlite3

from ..context_switches import per_1000_calls
from ..store import FACTOR_COLUMNS, STAT_COLUMNS, Store

EXPORT_KEYS = (
    "run_id", "suite", "cell_id", *FACTOR_COLUMNS, "idle_hold_held", "client_cpu", "server_cpu",
    "middleware", "middleware_version", "batch_size", *STAT_COLUMNS, "status", "error", "notes",
    "role", "load_generator", "client_switches_per_1000", "server_switches_per_1000", "daemon",
)


def cell_records(store: Store, run_ids: list[int]) -> list[dict]:
    records = []
    for run_id in run_ids:
        for row in store.cells(run_id):
            header = json.loads(row["measurer_header"]) if row["measurer_header"] else {}
            server = json.loads(row["server_header"]) if row["server_header"] else None
            record = {key: row[key] for key in row.keys() if key in EXPORT_KEYS}
            record.update(cell_factors(row))
            record["cell_id"] = row["id"]
            record["idle_hold_held"] = _bool(row["idle_hold_held"])
            record["notes"] = json.loads(row["notes"]) if row["notes"] else []
            record["middleware"] = header.get("middleware")
            record["middleware_version"] = header.get("middleware_version")
            record["load_generator"] = (json.loads(row["load_generator"])
                                        if row["load_generator"] else None)
            record["daemon"] = json.loads(row["daemon"]) if row["daemon"] else None
            (record["client_switches_per_1000"],
             record["server_switches_per_1000"]) = per_1000_calls(header, server)
            if record["samples"] is not None:
                record["samples"] = int(record["samples"])
            records.append({key: record.get(key) for key in EXPORT_KEYS})
    return records


def cell_factors(row: sqlite3.Row) -> dict:
    """The factors of a stored cell, in FACTOR_COLUMNS order, as Python values."""
    factors = {name: row[name] for name in FACTOR_COLUMNS}
    factors["idle_hold"] = _bool(row["idle_hold"])
    factors["options"] = json.loads(row["options"]) if row["options"] else None
    return factors


def _bool(value) -> bool | None:
    return None if value is None else bool(value)
