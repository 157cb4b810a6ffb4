"""Summaries of stored cells as plain records, for the export formats.

One record per cell, with the keys of the export contract (README, "Reading
results"): the run and its factors, the statistics, the status and error.
Factors a cell does not use are None.
"""

import json

from .store import FACTOR_COLUMNS, STAT_COLUMNS, Store

EXPORT_KEYS = (
    "run_id", "suite", "cell_id", *FACTOR_COLUMNS, "idle_hold_held", "client_cpu", "server_cpu",
    "middleware", "middleware_version", "batch_size", *STAT_COLUMNS, "status", "error", "notes",
)


def cell_records(store: Store, run_ids: list[int]) -> list[dict]:
    records = []
    for run_id in run_ids:
        for row in store.cells(run_id):
            header = json.loads(row["measurer_header"]) if row["measurer_header"] else {}
            record = {key: row[key] for key in row.keys() if key in EXPORT_KEYS}
            record["cell_id"] = row["id"]
            record["idle_hold"] = _bool(row["idle_hold"])
            record["idle_hold_held"] = _bool(row["idle_hold_held"])
            record["options"] = json.loads(row["options"]) if row["options"] else None
            record["notes"] = json.loads(row["notes"]) if row["notes"] else []
            record["middleware"] = header.get("middleware")
            record["middleware_version"] = header.get("middleware_version")
            if record["samples"] is not None:
                record["samples"] = int(record["samples"])
            records.append({key: record.get(key) for key in EXPORT_KEYS})
    return records


def _bool(value) -> bool | None:
    return None if value is None else bool(value)
