"""What an open-loop configuration says of its own load, over its launches.

A cell run under `load: constant:RATE` or `poisson:RATE` reports, in its
result header's `load` object (read by open_load.py), the rate it offered
and the rate of its answers, the sends that left more than one mean gap
late, and the calls never answered. A configuration's figures are the
median over its launches of each rate and the sum of each count, so that
the tables say how many of all its calls went wrong.
"""

import numpy as np

from ..load_level import Load, parse_load
from ..open_load import load_figures


def schedule(level: str | None) -> Load | None:
    """The open load of a configuration's level; None for a closed loop."""
    load = parse_load(level)
    return load if load.open else None


def rates(cells: list[dict]) -> dict:
    """offered and achieved (calls/s, the median over the launches that reported them);
    calls, late and lost (summed over them); each None when no launch reported its load."""
    found = [f for cell in cells if (f := load_figures(cell.get("measurer_header")))]
    if not found:
        return dict.fromkeys(("offered", "achieved", "calls", "late", "lost"))
    return {"offered": float(np.median([f.offered_per_s for f in found])),
            "achieved": float(np.median([f.achieved_per_s for f in found])),
            "calls": sum(f.calls for f in found), "late": sum(f.late_sends for f in found),
            "lost": sum(f.lost for f in found)}
