"""`--format json`: one summary object per cell, under the run's context.

    {"context": {...}, "cells": [{...}, ...]}

as Google Benchmark writes `{"context", "benchmarks"}`: context.py says what
the context holds, records.py the keys of a cell.
"""

import json
from typing import TextIO

from ..store import Store
from .context import context
from .records import cell_records


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    json.dump({"context": context(store, run_ids), "cells": cell_records(store, run_ids)},
              stream, indent=2)
    stream.write("\n")
    return []
