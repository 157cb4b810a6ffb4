"""What a run will do before it does it: launches, samples, time and precision per cell
(launches/ has the statistics it rests on).

`mwbench plan SPEC` prints it and `mwbench run` follows it. Without a
budget each configuration gets the spec's launches and samples, and the plan
only predicts, from the stored components (launches/calibration.py), how long each
takes and how wide its interval will be. With a budget the chooser
(launches/chooser.py) picks them, from components that must be fresh: the
configurations whose components are missing or stale are calibrated first,
and that time comes out of the budget. Until then the plan assumes
ASSUMED components for them and says so. An open loop's rate sets the least
a launch and a sample cost (open_load.py): a plan whose open-loop launch
outlasts its cell's timeout, or whose open-loop launches outlast the budget,
cannot run (`open_loop_problems`), and a budget too short for them says what
they take.
"""

from dataclasses import dataclass, replace

from .launches.calibration import (
    ASSUMED_LAUNCH_S,
    CALIBRATION_LAUNCHES,
    CALIBRATION_SAMPLES,
    Lookup,
)
from .launches.chooser import (
    MIN_LAUNCHES,
    BudgetError,
    Choice,
    best_samples,
    choose,
    expected_half_width,
)
from .launches.variance import Components
from .matrix import Cell, Matrix, scheduled
from .open_load import open_loop_time, paced, timeout_problems

# For a configuration never measured here: a spread between launches of 5%, the
# within-launch variance of a median of a skewed latency distribution, a launch and a
# sample of a typical loopback round trip. Only `mwbench plan` shows figures from these.
ASSUMED = Components(between=0.05**2, within=1.0, launch_cost_s=ASSUMED_LAUNCH_S,
                     sample_cost_s=20e-6, launches=0, samples=0)


@dataclass(frozen=True)
class Planned:
    configuration: Cell  # launch unset
    lookup: Lookup
    launches: int
    samples: int
    duration_s: float  # expected
    half_width: float | None  # expected relative half-width of the p50's 95% interval

    @property
    def assumed(self) -> bool:
        return not self.lookup.usable


@dataclass(frozen=True)
class LaunchPlan:
    rows: list[Planned]
    budget_s: float | None

    @property
    def to_calibrate(self) -> list[Cell]:
        return [row.configuration for row in self.rows if not row.lookup.usable]

    @property
    def calibration_s(self) -> float:
        return calibration_s([row.lookup for row in self.rows],
                             [row.configuration for row in self.rows])

    @property
    def duration_s(self) -> float:
        return sum(row.duration_s for row in self.rows)

    def record(self) -> dict:
        """What the run stores of it (runs.launch_plan)."""
        return {"budget_s": self.budget_s,
                "configurations": [{"label": row.configuration.label(),
                                    "launches": row.launches, "samples": row.samples,
                                    "expected_s": round(row.duration_s, 3),
                                    "expected_half_width": row.half_width,
                                    "components": row.lookup.state}
                                   for row in self.rows]}


def make_plan(matrix: Matrix, lookups: list[Lookup], budget_s: float | None) -> LaunchPlan:
    """The plan of `matrix`'s configurations (with `lookups` in the same order): the spec's
    launches and samples, or the chooser's within `budget_s` less the calibration's time
    (chooser.BudgetError when that cannot hold two launches of every cell)."""
    found = [paced(lookup.components if lookup.usable else ASSUMED, cell)
             for lookup, cell in zip(lookups, matrix.configurations, strict=True)]
    if budget_s is None:
        choices = [Choice(c.launches, c.samples, c.launches * f.launch_s(c.samples),
                          expected_half_width(f, c.launches, c.samples))
                   for c, f in zip(matrix.configurations, found, strict=True)]
        return LaunchPlan(_rows(matrix, lookups, choices), None)
    try:
        choices = choose(found, budget_s - calibration_s(lookups, matrix.configurations))
    except BudgetError as error:
        least = open_loop_time([(cell, MIN_LAUNCHES, best_samples(components))
                                for cell, components in zip(matrix.configurations, found,
                                                            strict=True)])
        raise BudgetError(f"{error}; {least}" if least else str(error)) from None
    return LaunchPlan(_rows(matrix, lookups, choices), budget_s)


def open_loop_problems(plan: LaunchPlan) -> list[str]:
    """The open-loop launches of `plan` that would outlast their cell's timeout
    (open_load.timeout_problems)."""
    return timeout_problems([(row.configuration, row.samples) for row in plan.rows])


def calibration_s(lookups: list[Lookup], configurations: list[Cell]) -> float:
    """Expected time of calibrating, before the run, what is missing or stale."""
    return sum(CALIBRATION_LAUNCHES * paced(lookup.components or ASSUMED, cell).launch_s(
        CALIBRATION_SAMPLES) for lookup, cell in zip(lookups, configurations, strict=True)
        if not lookup.usable)


def following(matrix: Matrix, plan: LaunchPlan) -> Matrix:
    """`matrix` with the plan's launches and samples, scheduled again with its seed."""
    configurations = [replace(row.configuration, launches=row.launches, samples=row.samples)
                      for row in plan.rows]
    return replace(matrix, configurations=configurations,
                   cells=scheduled(configurations, matrix.seed))


def _rows(matrix: Matrix, lookups: list[Lookup], choices: list[Choice]) -> list[Planned]:
    return [Planned(configuration, lookup, choice.launches, choice.samples, choice.duration_s,
                    choice.half_width)
            for configuration, lookup, choice in zip(matrix.configurations, lookups, choices,
                                                     strict=True)]
