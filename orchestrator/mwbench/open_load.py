"""What mwbench does around an open-loop cell (the factor `load`, load_level.py).

- The seed of a launch's Poisson schedule (`--load-seed`): derived from the
  cell's configuration and launch, so that the same launch of the same
  configuration sends on the same schedule in every run, and any launch can be
  replayed from its stored factors; the driver records it in its header.
- The figures of the result header's `load` object
  (docs/driver-contract-open-loop.md), which the store keeps in
  `cells.measurer_header`: `load_figures` is the one reader of it for the summary,
  `compare`, the report and `mwbench saturate`.
- The time an open loop takes, which its rate fixes: (warm-up + samples) /
  rate per launch, checked against the cell's `timeout_s` and the run's budget
  before anything runs (`time_problems`).
"""

import hashlib
import json
import math
from dataclasses import dataclass, replace

from .drivers import DriverInfo
from .launches.variance import Components
from .load_level import parse_load
from .resultfile import ResultFileError

SEED_BITS = 64
# Achieved over offered at or above which an open loop kept up (mwbench saturate's rule).
SUSTAINED = 0.95


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


# Operations that return data in their reply: a oneway call, which has none, cannot.
REPLY_OPERATIONS = ("octets_out", "octets_inout")
# The operation a oneway invocation makes: `oneway void ping_oneway()`, no argument, no reply.
ONEWAY_OPERATION = "ping"
# The invocations under which the CORBA drivers' open loop runs: theirs is AMI callbacks.
OPEN_INVOCATIONS = (None, "ami_callback")


def refusal(operation: str, options: dict) -> str | None:
    """Why the spec asks for a cell no driver can run (oneway with an operation other than
    ping), or None. The matrix skips it with this reason; an experiment left with no cell
    by it is an error."""
    if options.get("invocation") != "oneway" or operation == ONEWAY_OPERATION:
        return None
    if operation in REPLY_OPERATIONS:
        return f"invocation oneway cannot carry {operation}: a oneway call has no reply"
    return (f"invocation oneway calls `oneway void ping_oneway()`: the operation "
            f"{ONEWAY_OPERATION} only, not {operation}")


def open_loop_problem(levels: dict, options: dict, driver: DriverInfo,
                      batch: int | str) -> str | None:
    """Why the driver cannot run this cell's open-loop load (a closed loop: None). Its
    operation must be one of its `open_loop` (--describe), with one client thread, batch
    1 (or auto), for the CORBA drivers AMI callbacks (or the default invocation), and no
    option with which the driver times one way (`one_way_options`: delivery_time=1)."""
    load = parse_load(levels["load"])
    if not load.open:
        return None
    operation = levels["operation"]
    if operation not in driver.open_loop:
        return f"driver {driver.name} has no open-loop load for operation {operation}"
    if (levels["threads"] or 1) > 1:
        return (f"an open loop sends from one client thread; this cell has "
                f"{levels['threads']} threads")
    if batch not in (1, "auto"):
        return f"an open loop times each call (batch 1 or auto); this cell has batch {batch}"
    if (invocation := options.get("invocation")) not in OPEN_INVOCATIONS:
        return (f"an open loop invokes by AMI callbacks (invocation ami_callback, or unset); "
                f"invocation {invocation} runs in a closed loop only")
    if option := one_way_option(options, driver):
        return (f"with {option} {driver.name} times one way, from the servant's clock, in a "
                "closed loop only")
    return None


def one_way_option(options: dict, driver: DriverInfo) -> str | None:
    """The option=value of this cell with which the driver times a figure from two
    processes' clocks (`one_way_options` in --describe), or None."""
    for option, value in options.items():
        if str(value) in driver.one_way_options.get(option, ()):
            return f"{option}={value}"
    return None


def launch_s(cell, samples: int | None = None) -> float | None:
    """The least time one launch of an open-loop cell takes, its warm-up and `samples`
    (default: the cell's) sent at its rate; None for a closed loop."""
    load = parse_load(cell["load"])
    if not load.open:
        return None
    return (cell.warmup + (cell.samples if samples is None else samples)) / load.rate_per_s


def paced(components: Components, cell) -> Components:
    """What a launch and a sample of `cell` cost, at least: an open loop's rate sets them
    (a sample no less than one gap, the warm-up's gaps added to a launch), whatever a
    calibration, which times the samples and not the gaps between, says."""
    load = parse_load(cell["load"])
    if not load.open:
        return components
    gap_s = 1.0 / load.rate_per_s
    return replace(components, sample_cost_s=max(components.sample_cost_s, gap_s),
                   launch_cost_s=components.launch_cost_s + cell.warmup * gap_s)


def timeout_problems(planned: list[tuple]) -> list[str]:
    """The open-loop launches that would outlast their cell's `timeout_s`, for (cell,
    samples) as planned, each naming the experiment, the rate and the time."""
    problems = []
    for cell, samples in planned:
        seconds = launch_s(cell, samples)
        if seconds is not None and seconds > cell.timeout_s:
            problems.append(
                f"experiment '{cell['experiment']}': load {cell['load']} ({cell.label()}): "
                f"{cell.warmup} warm-up calls and {samples} samples at "
                f"{parse_load(cell['load']).rate_per_s:g} per second take {seconds:,.1f} s a "
                f"launch, more than its timeout_s of {cell.timeout_s:g} s: raise the rate or "
                "timeout_s, or lower the samples")
    return problems


def open_loop_time(planned: list[tuple]) -> str | None:
    """What the open-loop cells take at least, for (cell, launches, samples) as planned:
    the total and the longest, each naming its experiment, rate and time (None: no open
    loop), to say why a budget cannot hold them."""
    needs = [(launches * seconds, cell, launches, samples) for cell, launches, samples in planned
             if (seconds := launch_s(cell, samples)) is not None]
    if not needs:
        return None
    longest = sorted(needs, key=lambda need: -need[0])[:3]
    return (f"the open-loop cells alone take at least {sum(n[0] for n in needs):,.1f} s at "
            "their rates; the longest: " + "; ".join(
                f"experiment '{cell['experiment']}' load {cell['load']}: {launches} launches "
                f"of {cell.warmup} + {samples} calls, {seconds:,.1f} s"
                for seconds, cell, launches, samples in longest))


def judged(level: str | None, header: dict) -> list[str]:
    """The notes of an open-loop result (none for a closed loop); ResultFileError when its
    header has no `load` figures, or another load than the cell asked for."""
    load = parse_load(level)
    if not load.open:
        return []
    figures = load_figures(header)
    if figures is None:
        raise ResultFileError(f"the cell asked for load {level}; the result header has no "
                              "`load` figures (driver contract, --load)")
    if figures.kind != load.kind or not math.isclose(figures.rate_per_s, load.rate_per_s,
                                                     rel_tol=1e-9):
        raise ResultFileError(f"the result header says load {figures.kind}:"
                              f"{figures.rate_per_s:g}; the cell asked for {level}")
    notes = []
    if figures.lost:
        notes.append(f"{figures.lost} of the {figures.calls} calls sent were never answered "
                     "(lost): their samples are left out")
    if figures.achieved_fraction < SUSTAINED:
        notes.append(f"achieved {figures.achieved_per_s:,.0f} calls/s of the "
                     f"{figures.offered_per_s:,.0f} offered: the middleware did not keep up")
    return notes
