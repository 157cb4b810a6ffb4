"""What a report is made of: the stored runs, grouped the way a reader looks at them.

A run holds experiments; an experiment holds configurations (its cells with
every factor but the launch equal); a configuration keeps the per-call
samples of each launch (the figures are medians over launches:
launches/estimate.py), their pool (for the distributions drawn), and the
named series of each launch (the parts a driver timed inside its samples:
phases.py). Everything is read from the
store once, here, so the figures and tables only arrange what this module
hands them.
"""

import json
from dataclasses import dataclass, field

import numpy as np

from ..factors import CONFIGURATION, FACTORS, describe
from ..launches.bootstrap import launch_figure
from ..launches.estimate import Estimate, configuration_key, percentile
from ..named_series import NamedSeries
from ..store import Store

# Factors a reader tells configurations apart by, in the order labels use them: all but
# the experiment (each has its section) and the launch (pooled).
LABEL_FACTORS = tuple(name for name in CONFIGURATION if name != "experiment")
# Factors that are swept (numeric), drawn as lines against their value.
SWEPT_FACTORS = tuple(factor.name for factor in FACTORS if factor.swept)


@dataclass
class Configuration:
    factors: dict  # LABEL_FACTORS
    cells: list[dict] = field(default_factory=list)  # store rows as dicts, one per launch
    launches: dict[int, np.ndarray] = field(default_factory=dict)  # launch -> per-call µs
    per_call_us: np.ndarray = field(default_factory=lambda: np.empty(0))  # all launches
    throughput_per_s: list[float] = field(default_factory=list)
    named_series: list[NamedSeries] = field(default_factory=list)  # one per cell
    label: str = ""
    key: str = ""  # its factors and experiment, canonical: seeds its figures' bootstrap

    @property
    def ok(self) -> bool:
        return self.per_call_us.size > 0

    def percentile(self, q: float) -> float:
        """The median over launches of each launch's q-th percentile."""
        return launch_figure(list(self.launches.values()), q)

    def estimate(self, q: float) -> Estimate:
        """That figure with its interval (launches/estimate.py)."""
        return percentile(list(self.launches.values()), q, key=self.key)

    def series_launches(self, name: str) -> dict[int, np.ndarray]:
        """The named series `name` of each launch that has it, in µs (launch -> values)."""
        return {cell["launch"]: series[name] / 1000.0
                for cell, series in zip(self.cells, self.named_series, strict=True)
                if name in series and series[name].size}


@dataclass
class Experiment:
    name: str
    configurations: list[Configuration]
    failed: list[dict]  # failed cells, as store rows
    role: str | None = None  # its role in the combined-factor estimate, from the spec

    def varying(self) -> list[str]:
        """The label factors that take more than one value in this experiment."""
        return [name for name in LABEL_FACTORS
                if len({_key(c.factors[name]) for c in self.configurations}) > 1]

    def series(self, factor: str) -> list[tuple[str, list[Configuration]]]:
        """Lines along `factor`: configurations equal in every other factor, sorted by it,
        each line named by the other factors that vary (only lines of two points or more)."""
        others = [name for name in self.varying() if name != factor]
        lines: dict[tuple, list[Configuration]] = {}
        for c in self.configurations:
            if c.ok and c.factors[factor] is not None:
                key = tuple(_key(c.factors[name]) for name in LABEL_FACTORS if name != factor)
                lines.setdefault(key, []).append(c)
        return [(label(members[0].factors, others) if others else "all",
                 sorted(members, key=lambda c: _order(c.factors[factor])))
                for members in lines.values() if len(members) > 1]


@dataclass
class Run:
    id: int
    suite: str
    spec_path: str
    spec_text: str
    environment: dict
    status: str
    started_utc: str
    finished_utc: str | None
    experiments: list[Experiment]
    cells: list[dict]
    hosts: dict | None = None  # the other hosts' disclosure (hosts/disclosure.py)
    seed: int | None = None  # of the order of its launches; None: stored before they had one
    launch_plan: dict | None = None  # what a time budget chose (launch_plan.py)
    interop: list[dict] = field(default_factory=list)  # `mwbench interop`'s pairs, if any
    saturations: list[dict] = field(default_factory=list)  # `mwbench saturate`'s searches

    @property
    def failed_cells(self) -> list[dict]:
        return [cell for cell in self.cells if cell["status"] != "ok"]

    def sweeping(self, role: str) -> list[Experiment]:
        """The experiments that measure a factor for the estimate (`role`), or, in a run
        without such an experiment, all of them: a section then reads every sweep of it."""
        chosen = [e for e in self.experiments if e.role == role]
        return chosen or self.experiments


def load_run(store: Store, run_id: int) -> Run:
    row = store.run(run_id)
    cells = store.cells(run_id, spec_order=True)
    experiments: dict[str, Experiment] = {}
    configurations: dict[tuple, Configuration] = {}
    for cell in cells:
        experiment = experiments.setdefault(cell["experiment"],
                                            Experiment(cell["experiment"], [], [], cell["role"]))
        if cell["status"] != "ok":
            experiment.failed.append(cell)
            continue
        factors = {name: cell[name] for name in LABEL_FACTORS}
        key = (cell["experiment"], *(_key(v) for v in factors.values()))
        configuration = configurations.get(key)
        if configuration is None:
            configuration = configurations[key] = Configuration(
                factors, key=configuration_key({**factors, "experiment": cell["experiment"]}))
            experiment.configurations.append(configuration)
        configuration.cells.append(cell)
        if cell["throughput_per_s"]:
            configuration.throughput_per_s.append(cell["throughput_per_s"])
    for configuration in configurations.values():
        configuration.launches = {c["launch"]: store.samples(c["id"]) / (c["batch_size"] or 1)
                                  / 1000.0 for c in configuration.cells}
        configuration.launches = {k: v for k, v in configuration.launches.items() if v.size}
        parts = list(configuration.launches.values())
        configuration.per_call_us = np.concatenate(parts) if parts else np.empty(0)
        configuration.named_series = [store.named_series(c["id"]) for c in configuration.cells]
    for experiment in experiments.values():
        varying = experiment.varying() or ["driver", "transport"]
        for configuration in experiment.configurations:
            configuration.label = label(configuration.factors, varying)
    return Run(
        id=row["id"], suite=row["suite"], spec_path=row["spec_path"],
        spec_text=row["spec_text"], environment=json.loads(row["environment"]),
        status=Store.status(row), started_utc=row["started_utc"],
        finished_utc=row["finished_utc"], experiments=list(experiments.values()), cells=cells,
        hosts=json.loads(row["hosts"]) if row["hosts"] else None, seed=row["seed"],
        launch_plan=json.loads(row["launch_plan"]) if row["launch_plan"] else None,
        interop=store.interop_results(run_id),
        saturations=store.saturations(run_id),
    )


def label(factors: dict, names: list[str]) -> str:
    """A short name of a configuration, from the factors that tell it apart."""
    return " ".join(describe(factors, names)) or "all"


def _key(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value


def _order(value):
    """Sort key of a swept value: numbers by size; `none` before `cpu:1` before `cpu:10`."""
    if isinstance(value, str) and ":" in value:
        kind, _, count = value.partition(":")
        return (1, kind, int(count) if count.isdigit() else 0)
    return (0, "", value) if isinstance(value, (int, float)) else (0, str(value), 0)
