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
        for row in store.cells(run_id, spec_order=True):
            header = row["measurer_header"] or {}
            record = {key: row[key] for key in row if key in EXPORT_KEYS}
            record["cell_id"] = row["id"]
            record["middleware"] = header.get("middleware")
            record["middleware_version"] = header.get("middleware_version")
            (record["client_switches_per_1000"],
             record["server_switches_per_1000"]) = per_1000_calls(header, row["server_header"])
            if record["samples"] is not None:
                record["samples"] = int(record["samples"])
            records.append({key: record.get(key) for key in EXPORT_KEYS})
    return records


def cell_factors(cell: dict) -> dict:
    """The factors of a stored cell (as Store.cells reads it), in FACTOR_COLUMNS order."""
    return {name: cell[name] for name in FACTOR_COLUMNS}
