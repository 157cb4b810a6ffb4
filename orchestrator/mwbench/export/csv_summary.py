"""`--format csv`: one summary row per cell, the same records as JSON.

Lists and objects (notes, options) are written as JSON inside their cell,
None as an empty cell, so spreadsheet tools read every column; booleans as
`true`/`false`, and numbers as measured: a float to 15 significant digits (all
a double holds), so that arithmetic noise such as 0.30000000000000004 reads
0.3, an integer as it is.
"""

import csv
import json
from collections.abc import Iterable, Sequence
from typing import TextIO

from ..store import Store
from .records import EXPORT_KEYS, cell_records


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    return write_records(cell_records(store, run_ids), EXPORT_KEYS, stream)


def write_records(records: Iterable[dict], keys: Sequence[str], stream: TextIO) -> list[str]:
    """`records` as CSV with the columns `keys` (shared by the per-configuration CSV);
    returns the warnings (none)."""
    writer = csv.DictWriter(stream, fieldnames=keys)
    writer.writeheader()
    for record in records:
        writer.writerow({key: csv_value(value) for key, value in record.items()})
    return []


def csv_value(value):
    """A record's value as one CSV field (shared by the per-sample CSV)."""
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(value, ".15g")
    return "" if value is None else value
