"""The inputs of the combined-factor estimate: which stored cells make each term.

estimate.py states the formula; this module finds its terms in a run. The
`simple` experiment anchors the estimate: its configuration fixes the
driver, mode, transport, placement, idle hold, priority and background that
every sweep must share, so no term is taken under other conditions than the
rest. A sweep is one configuration of a role's experiment with everything
but its swept factor fixed; several such configurations (two operations of
the size sweep, two option settings of the threads sweep) are a choice the
caller makes, or the run's mixture experiment makes for it.
"""

import json
import statistics
from dataclasses import dataclass, field

from .store import Store

SWEPT = {"size": "payload_bytes", "servants": "servants", "threads": "threads"}
# Conditions every term shares with the simple cell.
CONTEXT = ("driver", "mode", "transport", "placement", "idle_hold", "priority", "background")
CONFIGURATION = ("experiment", "driver", "mode", "transport", "operation", "payload_bytes",
                 "placement", "idle_hold", "priority", "servants", "threads", "options",
                 "background")
CHOICES = (("driver", "--driver"), ("transport", "--transport"), ("placement", "--placement"))


class EstimateError(Exception):
    """An estimate that cannot be made; the message says which input is missing."""


@dataclass(frozen=True)
class Point:
    """One term of the formula: a median time per call and where it came from."""

    term: str  # "simple", "size(4096)", "servants(1)", "threads(4)", ...
    value_us: float
    cell_ids: tuple[int, ...]
    experiment: str
    note: str = ""  # e.g. how an interpolated size was made


@dataclass(frozen=True)
class Selection:
    driver: str | None = None
    transport: str | None = None
    placement: str | None = None
    operation: str | None = None  # of the size sweep
    options: dict = field(default_factory=dict)  # a sweep cell must not set these otherwise
    conditions: dict | None = None  # mode, idle_hold, priority, background, when prescribed


def run_cells(store: Store, run_id: int) -> list[dict]:
    """The cells of a run (Store.cells); StoreError for an unknown run."""
    return store.cells(run_id, spec_order=True)


def ok_cells(cells: list[dict]) -> list[dict]:
    return [c for c in cells if c["status"] == "ok" and c["p50_us"] is not None]


def describe(context: dict) -> str:
    text = " ".join(str(context[k]) for k in ("driver", "mode", "transport", "placement"))
    if context.get("background") not in (None, "none"):
        text += f" background {context['background']}"
    return text


@dataclass
class SweepPoints:
    """One configuration of a role's sweep: its cells by the value of the swept factor."""

    role: str
    factor: str
    experiment: str
    context: dict
    cells: list[dict]

    @staticmethod
    def group(cells: list[dict], leave_out: str | None = None) -> list[tuple[dict, list[dict]]]:
        """Cells grouped by configuration (all factors but launch and `leave_out`)."""
        groups: dict[str, tuple[dict, list[dict]]] = {}
        for cell in cells:
            factors = {k: cell[k] for k in CONFIGURATION if k != leave_out}
            key = json.dumps(factors, sort_keys=True, default=str)
            groups.setdefault(key, (factors, []))[1].append(cell)
        return list(groups.values())

    @staticmethod
    def median_of(cells: list[dict]) -> float:
        """The median over launches of each launch's median per call."""
        return float(statistics.median(c["p50_us"] for c in cells))

    def _value(self, cell: dict) -> int:
        value = cell[self.factor]
        return 1 if value is None and self.factor != "payload_bytes" else (value or 0)

    def measured(self) -> list[int]:
        return sorted({self._value(c) for c in ok_cells(self.cells)})

    def at(self, value: int) -> Point:
        ok = [c for c in ok_cells(self.cells) if self._value(c) == value]
        if ok:
            return Point(f"{self.role}({value})", self.median_of(ok), tuple(c["id"] for c in ok),
                         self.experiment)
        failed = [c for c in self.cells if self._value(c) == value and c["status"] != "ok"]
        where = f"the {self.role} sweep (experiment {self.experiment}, {describe(self.context)})"
        if failed:
            reason = (failed[0]["error"] or "no reason stored").splitlines()[0]
            raise EstimateError(f"{where}: {self.factor} {value} failed in this run "
                                f"(cell {failed[0]['id']}: {reason})")
        measured = ", ".join(str(v) for v in self.measured()) or "none"
        raise EstimateError(f"{where} has no cell with {self.factor} {value}; measured: "
                            f"{measured}")

    def size_at(self, size: int) -> Point:
        """size(s), interpolated linearly between the nearest measured sizes if need be."""
        measured = self.measured()
        if size in measured or any(self._value(c) == size for c in self.cells):
            return self.at(size)
        below = [v for v in measured if v < size]
        above = [v for v in measured if v > size]
        if not below or not above:
            raise EstimateError(
                f"the size sweep (experiment {self.experiment}, {describe(self.context)}) "
                f"has no cell with payload_bytes {size}, and {size} is outside the measured "
                f"{measured[0] if measured else '?'} to {measured[-1] if measured else '?'} B, "
                "so it cannot be interpolated")
        low, high = self.at(below[-1]), self.at(above[0])
        weight = (size - below[-1]) / (above[0] - below[-1])
        value = low.value_us + weight * (high.value_us - low.value_us)
        return Point(f"size({size})", value, low.cell_ids + high.cell_ids, self.experiment,
                     note=f"interpolated linearly between {below[-1]} B and {above[0]} B")


def _compatible(cell: dict, options: dict) -> bool:
    """A cell may leave an option unset (the driver's default), but not set it otherwise."""
    own = cell["options"] or {}
    return all(str(own[k]) == str(v) for k, v in options.items() if k in own)


def _mixture(cells: list[dict], chosen: dict) -> list[dict]:
    return [c for c in ok_cells(cells) if c["role"] == "mixture"
            and all(c[k] == v for k, v in chosen.items())]


def _choose(candidates, cells, chosen, key, wanted, flag, what) -> list[dict]:
    values = sorted({c[key] for c in candidates}, key=str)
    if wanted is not None:
        if wanted not in values:
            raise EstimateError(f"{what} has no cell with {key} {wanted}; it has: "
                                f"{', '.join(map(str, values)) or 'none'}")
    elif len(values) > 1:
        from_mixture = {c[key] for c in _mixture(cells, chosen)} & set(values)
        if len(from_mixture) != 1:
            raise EstimateError(f"{what} has several values of {key} "
                                f"({', '.join(map(str, values))}): choose one with {flag}")
        (wanted,) = from_mixture
    else:
        (wanted,) = values
    chosen[key] = wanted
    return [c for c in candidates if c[key] == wanted]


def choose_context(cells: list[dict], selection: Selection) -> tuple[dict, Point]:
    """The conditions of the estimate, fixed by the simple cell, and that cell's term."""
    simple = [c for c in cells if c["role"] == "simple"]
    if not simple:
        raise EstimateError("the run has no experiment with role: simple (the simple "
                            "invocation every estimate starts from; docs/spec-analysis.md)")
    candidates = ok_cells(simple)
    if not candidates:
        reason = (simple[0]["error"] or "").splitlines()[:1]
        raise EstimateError(f"every cell of the simple experiment failed ({simple[0]['id']}: "
                            f"{reason[0] if reason else 'no reason stored'})")
    if selection.conditions:
        candidates = [c for c in candidates
                      if all(c[k] == v for k, v in selection.conditions.items())]
        if not candidates:
            raise EstimateError("the simple experiment has no cell under the conditions "
                                f"{selection.conditions}")
    chosen: dict = {}
    for key, flag in CHOICES:
        candidates = _choose(candidates, cells, chosen, key, getattr(selection, key), flag,
                             "the simple experiment")
    candidates = [c for c in candidates if _compatible(c, selection.options)]
    groups = SweepPoints.group(candidates)
    if len(groups) != 1:
        raise EstimateError("the simple experiment has several configurations for "
                            f"{', '.join(str(v) for v in chosen.values())}: "
                            + "; ".join(_configuration_text(f) for f, _ in groups))
    factors, members = groups[0]
    context = {k: factors[k] for k in CONTEXT}
    point = Point("simple", SweepPoints.median_of(members), tuple(c["id"] for c in members),
                  factors["experiment"])
    return context, point


def find_sweep(cells: list[dict], role: str, context: dict, selection: Selection) -> SweepPoints:
    factor = SWEPT[role]
    members = [c for c in cells if c["role"] == role and all(c[k] == context[k] for k in CONTEXT)]
    if not members:
        raise EstimateError(f"the run has no {role} sweep (an experiment with role: {role}) "
                            f"for {describe(context)}")
    what = f"the {role} sweep for {describe(context)}"
    if role == "size":
        members = _choose(members, cells, dict(context), "operation", selection.operation,
                          "--operation", what)
    members = [c for c in members if _compatible(c, selection.options)]
    groups = SweepPoints.group(members, leave_out=factor)
    if len(groups) > 1:  # the mixture's options, if it has one setting, decide
        options = {json.dumps(c["options"], sort_keys=True) for c in _mixture(cells, context)}
        if len(options) == 1:
            wanted = json.loads(options.pop()) or {}
            groups = [g for g in groups if all(_compatible(c, wanted) for c in g[1])] or groups
    if len(groups) != 1:
        listed = "; ".join(_configuration_text(f) for f, _ in groups) or "none left"
        raise EstimateError(f"{what} has {len(groups)} configurations ({listed}): choose with "
                            "--operation or --option KEY=VALUE")
    factors, chosen = groups[0]
    return SweepPoints(role, factor, factors["experiment"], context, chosen)


def _configuration_text(factors: dict) -> str:
    options = " ".join(f"{k}={v}" for k, v in sorted((factors.get("options") or {}).items()))
    return f"experiment {factors['experiment']} {factors['operation']} {options}".strip()
