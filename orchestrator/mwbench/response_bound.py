"""The bound of an open loop's response time: a limit in µs at a percentile the user budgets.

`mwbench saturate --bound-us B --percentile P` and an experiment's `bound_us` and
`bound_percentile` both say it; p99 is the default, as gRPC's benchmarks and wrk2
leave the percentile to the user. Where the machine itself stalls now and then (a
virtual machine whose host takes its vCPUs away for milliseconds, ~1% of the time),
an open loop's p99 is those stalls at every rate, and only p90 or p50 still shows
where the middleware's queue starts to grow. The percentiles are the ones every
cell's statistics hold (stats.py), so a bound is judged on the figure a cell stores.

`p99_bound_us`, the one spelling before the percentile could be chosen, is read as
`bound_us` with `bound_percentile` 99.
"""

from dataclasses import dataclass
from typing import Any

# Each percentile a bound may be judged at, and the key of its figure in a cell's
# statistics (stats.CellStats) and in a probe's record (saturation.Verdict.record).
STAT_KEYS = {50.0: "p50_us", 90.0: "p90_us", 99.0: "p99_us", 99.9: "p999_us"}
PERCENTILES = tuple(STAT_KEYS)
DEFAULT_PERCENTILE = 99.0
OLD_SPEC_KEY = "p99_bound_us"


@dataclass(frozen=True)
class Bound:
    """The figure at `percentile` must stay under `us`."""

    us: float
    percentile: float = DEFAULT_PERCENTILE

    @property
    def name(self) -> str:
        """How a reader writes the percentile: p50, p90, p99, p99.9."""
        return percentile_name(self.percentile)

    @property
    def stat_key(self) -> str:
        return STAT_KEYS[self.percentile]

    @property
    def key(self) -> str:
        """The key of the percentile in the report's points: p50, p90, p99, p999."""
        return self.stat_key.removesuffix("_us")


def percentile_name(percentile: float) -> str:
    return f"p{percentile:g}"


def allowed_text() -> str:
    return ", ".join(f"{p:g}" for p in PERCENTILES)


def allowed_percentile(value: float) -> float:
    """A percentile a bound may be judged at (the spec's `bound_percentile`), or ValueError
    naming the ones allowed."""
    if value not in STAT_KEYS:
        raise ValueError(f"{value:g} is not a percentile a bound is judged at: one of "
                         f"{allowed_text()}")
    return float(value)


def check_old_spec_key(data: Any) -> Any:
    """An experiment's keys, as they are, unless they give both spellings of the bound,
    `p99_bound_us` with another percentile, or a percentile with no bound to judge:
    ValueError naming the experiment. (The spec reads `p99_bound_us` as `bound_us`.)"""
    if not isinstance(data, dict):
        return data
    name = f"experiment '{data.get('name')}': "
    if OLD_SPEC_KEY in data:
        if "bound_us" in data:
            raise ValueError(f"{name}set bound_us only: {OLD_SPEC_KEY} is its old name (a "
                             "bound at p99)")
        if data.get("bound_percentile", DEFAULT_PERCENTILE) != DEFAULT_PERCENTILE:
            raise ValueError(f"{name}{OLD_SPEC_KEY} is a bound at p99, not at "
                             f"bound_percentile {data['bound_percentile']}: write bound_us "
                             "for a bound at another percentile")
    elif "bound_percentile" in data and "bound_us" not in data:
        raise ValueError(f"{name}bound_percentile without bound_us: give the bound the "
                         "percentile must stay under")
    return data
