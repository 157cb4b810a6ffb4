"""What mwbench does around an open-loop cell (the factor `load`, load_level.py).

- The seed of a launch's Poisson schedule (`--load-seed`): derived from the
  cell's configuration and launch, so that the same launch of the same
  configuration sends on the same schedule in every run, and any launch can be
  replayed from its stored factors; the driver records it in its header.
- The figures of the result header's `load` object (docs/driver-contract.md),
  which the store keeps in `cells.measurer_header`: `load_figures` is the one
  reader of it for the summary, `compare`, the report and `mwbench saturate`.
- The time an open loop takes, which its rate fixes: (warm-up + samples) /
  rate per launch, checked against the cell's `timeout_s` and the run's budget
  before anything runs (`time_problems`).
"""

import hashlib
import json
from dataclasses import dataclass

from .load_level import parse_load

SEED_BITS = 64


def load_seed(levels: dict) -> int | None:
    """The `--load-seed` of a cell (its levels, launch included): None for a closed loop.
    A hash of the configuration's levels as the store keeps them, so that it does not
    change with the run, the order of the launches or the machine."""
    if not parse_load(levels.get("load")).open:
        return None
    text = json.dumps(levels, sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:SEED_BITS // 8], "little")


@dataclass(frozen=True)
class LoadFigures:
    """An open-loop launch as its measuring process reported it."""

    kind: str
    rate_per_s: float  # asked
    seed: int | None
    calls: int  # measured calls sent
    offered_per_s: float  # sent, over the span of their intended times
    achieved_per_s: float  # answered, over the span from the first intended time
    late_sends: int  # sent more than one mean gap after their intended time
    outstanding_at_end: int  # unanswered at the instant of the last send
    lost: int  # unanswered at the end

    @property
    def achieved_fraction(self) -> float:
        """Achieved over offered: 1 when the middleware kept up."""
        return self.achieved_per_s / self.offered_per_s if self.offered_per_s else 0.0


def load_figures(measurer_header: dict | str | None) -> LoadFigures | None:
    """The `load` object of a cell's measurer header (a dict, or the JSON the store keeps);
    None for a closed loop or a header without it."""
    if isinstance(measurer_header, str):
        measurer_header = json.loads(measurer_header)
    load = (measurer_header or {}).get("load")
    if not isinstance(load, dict):
        return None
    return LoadFigures(
        kind=str(load.get("kind")), rate_per_s=float(load.get("rate_per_s") or 0.0),
        seed=load.get("seed"), calls=int(load.get("calls") or 0),
        offered_per_s=float(load.get("offered_per_s") or 0.0),
        achieved_per_s=float(load.get("achieved_per_s") or 0.0),
        late_sends=int(load.get("late_sends") or 0),
        outstanding_at_end=int(load.get("outstanding_at_end") or 0),
        lost=int(load.get("lost") or 0))
