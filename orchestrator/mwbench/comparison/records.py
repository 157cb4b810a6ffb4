"""A comparison as plain records, one per configuration, for `compare --json`.

Each record carries the runs, the settings and the method beside its figures,
so that a record copied out of the list (into a CI log, a ticket) still says
how it was obtained. Figures a configuration lacks are None.
"""

from . import Comparison, Row, Side
from .runs import MATCH_FACTORS

METHOD = "hierarchical bootstrap over launches"


def records(comparison: Comparison) -> list[dict]:
    settings = comparison.settings
    common = {
        "base_run": comparison.base.run_id,
        "new_run": comparison.new.run_id,
        "threshold_pct": settings.threshold * 100.0,
        "confidence": settings.confidence,
        "seed": settings.seed,
        "replicates": settings.replicates,
    }
    return [{**common, **_record(row)} for row in comparison.rows]


def _record(row: Row) -> dict:
    record = {name: row.factors.get(name) for name in MATCH_FACTORS}  # as the store decodes
    record.update(verdict=row.verdict, ratio=row.ratio, ci_low=row.ci_low, ci_high=row.ci_high,
                  method=METHOD, smallest_detectable_pct=None if row.detectable is None
                  else row.detectable * 100.0, launches_needed=row.needs)
    for role, side in (("base", row.base), ("new", row.new)):
        record.update(_side(role, side))
    return record


def _side(role: str, side: Side | None) -> dict:
    side = side or Side()
    return {
        f"{role}_launches": side.launches,
        f"{role}_p50_us": side.p50_us,
        f"{role}_p99_us": side.p99_us,
        f"{role}_failed": [{"launch": f.launch, "error": f.error} for f in side.failed],
        f"{role}_injected_delay_ns": side.injected_delay_ns,
    }
