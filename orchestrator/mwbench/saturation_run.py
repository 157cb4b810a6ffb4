"""`mwbench saturate`'s run: the searches of saturation.py, each probe real launches.

The experiment's configurations are expanded as `mwbench run` expands them,
its `load` replaced by the open loop searched (the kind the experiment's own
open levels name, else poisson), so that a configuration the driver cannot
run in an open loop is skipped with the reason; an experiment with none left
is not open-loop-capable, an error before anything runs. Each round probes
one rate per configuration still searching: their launches (the spec's
`launches`, samples and warm-up) run interleaved in randomised blocks, as a
run's do, and are stored as cells of one run (suite `SUITE.saturate`); each
search's outcome, with its bound and the bound's percentile, is stored in the
table `saturation` once it ends.
"""

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from .interruption import Interrupted
from .launches.estimate import configuration_key
from .load_level import OPEN_KINDS, parse_load
from .matrix import Cell, expand, scheduled
from .open_load import load_figures, timeout_problems
from .overrides import Overrides
from .response_bound import Bound
from .runner import measuring, plan
from .saturation import Outcome, judge_probe, rates
from .spec import load_spec
from .spec_text import did_you_mean
from .store import CellRecord, Store

DEFAULT_KIND = "poisson"
PROBE_SECONDS = 2.0  # the least a probe's launch sends for, by default


class SaturateError(Exception):
    """What makes a search impossible before it starts; the message names it."""


@dataclass
class Saturation:
    """What `mwbench saturate` did: its run, each configuration's outcome (in the spec's
    order; those a stop signal cut short are missing) and the signal, if one came."""

    run_id: int
    configurations: list[Cell]
    outcomes: dict[str, Outcome]  # by configuration_key(searched(...))
    kind: str
    interrupted: Interrupted | None = None


def searched(cell: Cell) -> dict:
    """The factors of a configuration that the search keeps: all but the load and the
    launch (the key of its outcome, and its `configuration` in the table)."""
    return {name: level for name, level in cell.levels.items() if name not in ("load", "launch")}


def saturate(spec_path: Path, experiment: str, bound: Bound, low: float,
             high: float | None, db_path: Path, console: Console,
             inventory_path: Path | None = None, seed: int | None = None,
             probe_seconds: float = PROBE_SECONDS) -> Saturation:
    """Search every configuration of `experiment` (see the module's text); SaturateError,
    or the spec's, inventory's and matrix's own errors, before anything runs."""
    names = [each.name for each in load_spec(spec_path)[0].experiments]
    if experiment not in names:
        raise SaturateError(f"--experiment {experiment}: {spec_path} has no experiment "
                            f"'{experiment}'{did_you_mean(experiment, names)} (its "
                            f"experiments: {', '.join(names)})")
    spec, text, drivers, _, inventory = plan(spec_path, inventory_path, seed,
                                             Overrides(experiments=(experiment,)))
    kind = _kind(spec_path, spec)
    probing = spec.model_copy(update={"experiments": [
        spec.experiments[0].model_copy(update={"load": [f"{kind}:{low:g}"]})]})
    matrix = expand(probing, drivers, inventory, seed)
    if not matrix.configurations:
        reasons = "; ".join(dict.fromkeys(f"{s.driver} {s.what}: {s.reason}"
                                          for s in matrix.skipped)) or "no configuration"
        raise SaturateError(f"{spec_path}: experiment '{experiment}' is not open-loop-capable "
                            f"(no driver runs it in an open loop): {reasons}")
    if problems := timeout_problems([(cell, probe_samples(cell, low, probe_seconds))
                                     for cell in matrix.configurations]):
        raise SaturateError(f"{spec_path}: at --low {low:g}: " + "\n".join(problems))
    store = Store.create_or_open(db_path)
    try:
        with measuring(f"{spec.suite}.saturate", spec_path, text, drivers, store, matrix,
                       inventory, console) as run:
            run_id = run.begin(matrix.seed, None, None,
                               f"searching the highest {kind} rate of "
                               f"{len(matrix.configurations)} configurations whose "
                               f"{bound.name} stays under {bound.us:g} µs")
            saturation = Saturation(run_id, matrix.configurations, {}, kind)
            try:
                saturation.interrupted = _search(run, saturation, matrix.seed, bound,
                                                 low, high, probe_seconds)
            finally:
                store.end_run(run_id, "interrupted" if saturation.interrupted else "finished")
            for cell in matrix.configurations:
                key = configuration_key(searched(cell))
                if (outcome := saturation.outcomes.get(key)) is not None:
                    store.add_saturation(run_id, _row(cell, kind, bound, outcome))
            return saturation
    finally:
        store.close()


def _search(run, saturation: Saturation, seed: int, bound: Bound, low: float,
            high: float | None, probe_seconds: float) -> Interrupted | None:
    """Step every configuration's search, a round of probes at a time, until all end."""
    searches = {configuration_key(searched(cell)): (cell, rates(low, high))
                for cell in saturation.configurations}
    pending = {key: next(steps) for key, (_, steps) in searches.items()}
    round_number = 0
    while pending:
        probes = [dataclasses.replace(
            searches[key][0], samples=probe_samples(searches[key][0], rate, probe_seconds),
            levels={**searches[key][0].levels, "load": f"{saturation.kind}:{rate:g}"})
            for key, rate in pending.items()]
        records: list[CellRecord] = []
        interrupted = run.measure(saturation.run_id, scheduled(probes, seed + round_number),
                                  records)
        if interrupted:
            return interrupted
        for key, rate in list(pending.items()):
            launches = [r for r in records if configuration_key(
                {n: v for n, v in r.factors.items() if n not in ("load", "launch")}) == key]
            try:
                pending[key] = searches[key][1].send(_verdict(rate, launches, bound))
            except StopIteration as finished:
                saturation.outcomes[key] = finished.value
                del pending[key]
        round_number += 1
    return None


def _verdict(rate: float, launches: list[CellRecord], bound: Bound):
    ok = [record for record in launches if record.status == "ok"]
    figures = [load_figures(record.measurer_header) for record in ok]
    return judge_probe(rate, [record.stats[bound.stat_key] for record in ok],
                       [f.achieved_fraction if f else 0.0 for f in figures],
                       len(launches) - len(ok), bound, sum(f.lost for f in figures if f))


def probe_samples(cell: Cell, rate: float, seconds: float) -> int:
    """A probe's samples per launch: the experiment's, or more, so that it sends for at
    least `seconds`. A fixed count at a high rate is a burst of milliseconds, which buffers
    and queues absorb whatever the rate the middleware could keep up."""
    return max(cell.samples, math.ceil(rate * seconds))


def _kind(spec_path: Path, spec) -> str:
    """The open loop the search offers: the kind of the experiment's open `load` levels,
    else poisson (a user's arrivals are independent of one another)."""
    experiment = spec.experiments[0]
    levels = experiment.load or spec.defaults.load or []
    kinds = list(dict.fromkeys(load.kind for level in levels
                               if (load := parse_load(level)).open))
    if len(kinds) > 1:
        raise SaturateError(f"{spec_path}: experiment '{experiment.name}': its load levels "
                            f"are of {' and '.join(kinds)} loads; a search offers one kind "
                            f"({', '.join(OPEN_KINDS)}): keep the one to search")
    return kinds[0] if kinds else DEFAULT_KIND


def _row(cell: Cell, kind: str, bound: Bound, outcome: Outcome) -> dict:
    return {"configuration": json.dumps(searched(cell), sort_keys=True, default=str),
            "kind": kind, "bound_us": bound.us, "percentile": bound.percentile,
            "max_rate_per_s": outcome.max_rate_per_s,
            "reason": outcome.reason, "probes": [probe.record() for probe in outcome.probes]}
