"""`--format json`: one summary object per cell, in a JSON array."""

import json
from typing import TextIO

from ..store import Store
from .records import cell_records


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    json.dump(cell_records(store, run_ids), stream, indent=2)
    stream.write("\n")
    return []
