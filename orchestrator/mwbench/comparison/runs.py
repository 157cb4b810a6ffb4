"""The cells of one run, grouped into configurations that two runs can share.

A configuration is every factor of a cell but its launch: the launches of a
configuration are measurements of the same thing, each by a new set of
processes (launches/). Failed cells stay in their configuration, so that a
comparison can list them rather than silently count fewer launches.
"""

import json
from dataclasses import dataclass, field

import numpy as np

from ..factors import CONFIGURATION, other_factors
from ..open_load import SUSTAINED, load_figures
from ..store import Store

MATCH_FACTORS = CONFIGURATION  # every factor but the launch (factors.py)


@dataclass
class FailedCell:
    launch: int
    error: str


@dataclass
class Configuration:
    factors: dict  # keys of MATCH_FACTORS, as stored (options decoded)
    launches: dict[int, np.ndarray] = field(default_factory=dict)  # launch -> per-call ns, ok
    failed: list[FailedCell] = field(default_factory=list)
    injected_delay_ns: int | None = None  # MWBENCH_INJECT_DELAY_NS of its cells, if any
    achieved: list[float] = field(default_factory=list)  # open loop: achieved / offered, ok

    @property
    def behind(self) -> bool:
        """An open loop whose middleware did not keep up with the rate offered (the median
        of its launches): its response times are a queue's, which grew for the whole
        launch."""
        return bool(self.achieved) and float(np.median(self.achieved)) < SUSTAINED


@dataclass
class RunCells:
    run_id: int
    suite: str
    cell_count: int
    configurations: dict[tuple, Configuration]  # in the spec's order

    def describe(self) -> str:
        return f"run {self.run_id} (suite {self.suite}, {self.cell_count} cells)"

    def injected_delays(self) -> dict[int, int]:
        """Injected delay (ns) → how many configurations were slowed by it."""
        delays: dict[int, int] = {}
        for configuration in self.configurations.values():
            if configuration.injected_delay_ns:
                delay = configuration.injected_delay_ns
                delays[delay] = delays.get(delay, 0) + 1
        return delays

    def behind(self) -> int:
        """How many of its open-loop configurations did not keep up with their rate."""
        return sum(1 for configuration in self.configurations.values() if configuration.behind)


def load_run(store: Store, run_id: int) -> RunCells:
    """Every cell of a run with its raw samples; StoreError for an unknown run."""
    suite = store.run(run_id)["suite"]
    rows = store.cells(run_id, spec_order=True)
    configurations: dict[tuple, Configuration] = {}
    for row in rows:
        factors = {name: row[name] for name in MATCH_FACTORS}
        key = match_key(factors)
        configuration = configurations.setdefault(key, Configuration(factors=factors))
        if row["status"] != "ok":
            configuration.failed.append(FailedCell(row["launch"], row["error"] or ""))
            continue
        samples = store.samples(row["id"])
        if samples.size == 0:
            configuration.failed.append(FailedCell(row["launch"], "no samples stored"))
            continue
        # Samples are ns per batch; a per-call time makes batched and unbatched cells comparable.
        configuration.launches[row["launch"]] = samples / float(row["batch_size"] or 1)
        header = row["measurer_header"] or {}
        if header.get("injected_delay_ns"):
            configuration.injected_delay_ns = int(header["injected_delay_ns"])
        if (figures := load_figures(header)) is not None:
            configuration.achieved.append(figures.achieved_fraction)
    return RunCells(run_id, suite, len(rows), configurations)


def match_key(factors: dict) -> tuple:
    # Options are a mapping: their order in the spec must not keep two runs apart.
    options = factors.get("options")
    canonical = json.dumps(options, sort_keys=True) if options else None
    return tuple(canonical if name == "options" else factors.get(name) for name in MATCH_FACTORS)


def describe_factors(factors: dict) -> str:
    """One line naming a configuration, for lists and messages: every factor it sets."""
    return " ".join(other_factors(factors, columns=()))


