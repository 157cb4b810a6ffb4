"""The combined-factor estimate of the Open CORBA Benchmarking suite (Tůma and Buble).

From single-factor sweeps of one run it predicts the time of a call that
combines the factors:

    estimated_time = (simple + size(s) - size(0) + servants(n) - servants(1))
                     * threads(t) / threads(1)

Payload and servants add to the time of a call; threads scale it. The paper
assumes the factors are orthogonal, which holds until they compete for one
resource (a CPU, above all); the suite's `mixture` experiment measures
combinations to see how far that holds.

Which experiment is which term is explicit in the spec: an experiment's
`role` (simple, size, servants, threads, mixture), stored with each cell.
Every term is the median time per call of one configuration (per thread,
for the threads sweep), the median over launches of each launch's
p50, and names the cells it came from. Only the terms the question needs are
looked up: with one servant the servants sweep is not needed at all.

A sweep point that was not measured is an error naming the factor and the
values that were. The one exception is payload: a size between two measured
sizes is interpolated linearly between them (the cost of copying data is
close to linear in its size, docs/spec-analysis.md), and the answer says so.

When a run holds several configurations (drivers, transports, placements,
operations, option settings), the caller chooses; where it does not, a
value the run has only one of is taken, then the one the run's `mixture`
experiment used, and otherwise the error lists the choices.
"""

from dataclasses import dataclass, field

from .estimate_inputs import (
    EstimateError,
    Point,
    Selection,
    SweepPoints,
    choose_context,
    find_sweep,
    ok_cells,
    run_cells,
)

__all__ = ["Estimate", "EstimateError", "Point", "Selection", "estimate", "run_cells"]


@dataclass
class Estimate:
    payload_bytes: int
    servants: int
    threads: int
    context: dict  # driver, mode, transport, placement, idle_hold, priority, background, ...
    terms: list[Point] = field(default_factory=list)
    estimate_us: float = 0.0

    def term(self, name: str) -> Point | None:
        return next((point for point in self.terms if point.term == name), None)

    def formula(self) -> str:
        """The formula with this estimate's numbers in it."""
        def value(name: str) -> str:
            point = self.term(name)
            return f"{point.value_us:.3f}" if point else "0"

        s, n, t = self.payload_bytes, self.servants, self.threads
        added = value("simple")
        if s:
            added += f" + {value(f'size({s})')} - {value('size(0)')}"
        if n != 1:
            added += f" + {value(f'servants({n})')} - {value('servants(1)')}"
        if t == 1:
            return f"{added} = {self.estimate_us:.3f}"
        return (f"({added}) * {value(f'threads({t})')} / {value('threads(1)')}"
                f" = {self.estimate_us:.3f}")


def estimate(cells: list[dict], payload_bytes: int, servants: int, threads: int,
             selection: Selection | None = None) -> Estimate:
    """The estimate for one combination; EstimateError when an input is missing."""
    if payload_bytes < 0 or servants < 1 or threads < 1:
        raise EstimateError("payload bytes must be >= 0, servants and threads >= 1")
    selection = selection or Selection()
    context, simple = choose_context(cells, selection)
    result = Estimate(payload_bytes, servants, threads, context)
    result.terms.append(simple)
    added = simple.value_us
    if payload_bytes:
        sweep = find_sweep(cells, "size", context, selection)
        high, low = sweep.size_at(payload_bytes), sweep.at(0)
        result.terms += [high, low]
        added += high.value_us - low.value_us
    if servants != 1:
        sweep = find_sweep(cells, "servants", context, selection)
        many, one = sweep.at(servants), sweep.at(1)
        result.terms += [many, one]
        added += many.value_us - one.value_us
    scale = 1.0
    if threads != 1:
        sweep = find_sweep(cells, "threads", context, selection)
        many, one = sweep.at(threads), sweep.at(1)
        result.terms += [many, one]
        scale = many.value_us / one.value_us
    result.estimate_us = added * scale
    return result


@dataclass
class MixtureRow:
    """One mixture configuration: measured against estimated."""

    factors: dict
    cell_ids: list[int]
    measured_us: float
    estimate: Estimate | None = None
    error: str | None = None  # why there is no estimate

    @property
    def relative_error(self) -> float | None:
        """(estimated - measured) / measured: positive when the estimate is too slow."""
        if self.estimate is None:
            return None
        return (self.estimate.estimate_us - self.measured_us) / self.measured_us


def mixture_rows(cells: list[dict]) -> list[MixtureRow]:
    """Every configuration of the run's mixture experiments, with its estimate."""
    rows = []
    groups = SweepPoints.group([c for c in ok_cells(cells) if c["role"] == "mixture"])
    for factors, members in groups:
        row = MixtureRow(factors, [c["id"] for c in members],
                         SweepPoints.median_of(members))
        selection = Selection(
            driver=factors["driver"], transport=factors["transport"],
            placement=factors["placement"], operation=factors["operation"],
            options=factors["options"] or {},
            conditions={name: factors[name] for name in
                        ("mode", "idle_hold", "priority", "background")})
        try:
            row.estimate = estimate(cells, factors["payload_bytes"] or 0,
                                    factors["servants"] or 1, factors["threads"] or 1,
                                    selection)
        except EstimateError as error:
            row.error = str(error)
        rows.append(row)
    return rows
