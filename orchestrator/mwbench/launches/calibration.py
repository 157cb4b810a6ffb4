"""The variance components of each configuration on this machine, kept in the store.

A budget is spent from measured variance (chooser.py), and variance is a
property of a machine and a configuration: how far a launch of omniORB over
TCP on two CPUs of this virtual machine lands from the next. So the store
keeps, per machine and configuration (every factor but the experiment and
the launch), the components of variance.py, with the date and the run they
came from. Two things refresh them:

- every finished run: each configuration it measured with two launches or
  more gives its components for free (`record_run`);
- a short calibration before a budgeted run, for the configurations whose
  components are missing or stale (older than MAX_AGE, or of another machine:
  `machine_key` names a machine by its CPUs, memory, kernel and host name):
  CALIBRATION_LAUNCHES launches of CALIBRATION_SAMPLES samples each, stored
  as a run of its own (runner.py).
"""

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from ..store import FACTOR_COLUMNS, Store
from .variance import Components, TooFewLaunches, components

MAX_AGE = timedelta(days=7)
CALIBRATION_LAUNCHES = 4
CALIBRATION_SAMPLES = 1000
# What a launch of an uncalibrated configuration is assumed to cost, for `mwbench plan`'s
# estimate of the calibration itself: about what a rawtcp launch takes on the reference
# machine (docs/performance.md, "Launches").
ASSUMED_LAUNCH_S = 0.15
# The factors that do not make a configuration: where it was declared, which launch.
NOT_CONFIGURATION = ("experiment", "launch")


@dataclass(frozen=True)
class Lookup:
    components: Components | None
    state: str  # fresh | stale | missing
    measured_utc: str | None = None

    @property
    def usable(self) -> bool:
        return self.state == "fresh"


def machine_key(machine: dict, kernel_release: str) -> str:
    """What tells two machines apart for their variance (environment.machine())."""
    facts = {name: machine.get(name) for name in
             ("hostname", "cpu_model", "cpu_count", "memory_kb", "cpuidle_driver",
              "virtualization")}
    return json.dumps({**facts, "kernel": kernel_release}, sort_keys=True)


def configuration_key(factors: dict) -> str:
    """A configuration's factors, canonical: the same for the same configuration in any
    experiment or run."""
    return json.dumps({name: value for name, value in factors.items()
                       if name not in NOT_CONFIGURATION}, sort_keys=True)


def look_up(store: Store, machine: str, factors: dict,
            now: datetime | None = None) -> Lookup:
    row = store.calibration(machine, configuration_key(factors))
    if row is None:
        return Lookup(None, "missing")
    found = Components(between=row["between_launches"], within=row["within_launch"],
                       launch_cost_s=row["launch_cost_s"], sample_cost_s=row["sample_cost_s"],
                       launches=row["launches"], samples=row["samples"])
    measured = datetime.fromisoformat(row["measured_utc"])
    fresh = (now or datetime.now(UTC)) - measured <= MAX_AGE
    return Lookup(found, "fresh" if fresh else "stale", row["measured_utc"])


def record_run(store: Store, machine: str, run_id: int) -> int:
    """Store the components of every configuration the run measured with two ok launches
    or more; returns how many."""
    launches: dict[str, list[tuple[np.ndarray, float]]] = {}
    for cell in store.cells(run_id):
        if cell["status"] != "ok":
            continue
        samples = store.samples(cell["id"])
        if samples.size:
            key = configuration_key({name: cell[name] for name in FACTOR_COLUMNS})
            launches.setdefault(key, []).append((samples, cell["duration_s"]))
    recorded = 0
    for key, measured in launches.items():
        try:
            found = components([m[0] for m in measured], [m[1] for m in measured])
        except TooFewLaunches:
            continue
        store.save_calibration(machine, key, _columns(found), run_id)
        recorded += 1
    return recorded


def _columns(found: Components) -> dict:
    """The store's columns of a calibration (`between` is a word of SQL)."""
    values = asdict(found)
    return {"between_launches": values.pop("between"), "within_launch": values.pop("within"),
            **values}
