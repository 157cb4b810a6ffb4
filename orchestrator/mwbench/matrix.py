"""Expansion of a spec into the full factorial matrix of cells.

Every list-valued factor multiplies the matrix. Combinations a driver cannot
run (a transport it lacks, a payload on an operation without one, two CPUs for
a single-threaded collocated cell, more threads or servants than its
`--describe` allows, a factor passed as a driver option it does not declare,
such as `assembly`, an option value it does not accept, such as `orb` jacorb
for the ccm driver, an open-loop load of an operation it has no open loop
for) are skipped and listed with the reason; names nobody knows (a driver, an
operation, a transport, an option) are errors, raised before anything runs, as
is an experiment that a contradiction of its own (a oneway call of an operation
with a reply: open_load.py) leaves with no cell. A cell with more busy threads
than the machine has CPUs is run, and carries a note saying so (crowding.py has
the rule).
"""

import dataclasses
import itertools
import os
from dataclasses import dataclass, field
from typing import Any

from .crowding import busy_threads, crowding_note
from .drivers import DriverInfo
from .factors import BACKGROUND_NONE, FACTORS, FANOUT_OPERATION, NAMES, describe, other_factors
from .hosts.inventory import LOCAL, Host, local_host
from .hosts.topology import Topology
from .launches.schedule import new_seed, randomised_blocks
from .matrix_size import size_problem
from .open_load import one_way_option, open_loop_problem, refusal
from .spec import Spec, effective_settings
from .spec_text import did_you_mean

COLLOCATED_TRANSPORT = "inproc"
HARNESS_OPTIONS = {"fault"}  # reserved by the harness for every driver (contract, section 2)


# The factors crossed as they stand (factors.py); the others have rules of their own here.
CROSSED = tuple(factor for factor in FACTORS if factor.crossed)
# The factors a driver receives as one of its options, which it must declare.
AS_DRIVER_OPTION = tuple(factor for factor in FACTORS if factor.driver_option)


class MatrixError(Exception):
    """A name in the spec that no driver knows; the message lists the known ones.
    `location`: where in the spec the name is (experiment index, key, value), if known."""

    def __init__(self, message: str, location: tuple = ()):
        super().__init__(message)
        self.location = location


@dataclass(frozen=True)
class Cell:
    """One combination of levels, and how to measure it."""

    levels: dict  # factor name -> level, every factor of factors.py in its order
    warmup: int
    samples: int  # per launch
    launches: int  # of its configuration; levels["launch"] says which one this is
    batch: int | str
    timeout_s: float
    role: str | None = None  # the experiment's role in the combined-factor estimate
    memory_limit_mb: int | None = None
    notes: tuple[str, ...] = ()  # known before the cell runs (crowding)
    position: int | None = None  # its configuration's place in the spec's order

    def __getitem__(self, factor: str) -> Any:
        return self.levels[factor]

    @property
    def samples_asked(self) -> int:
        """The samples its measuring process is asked for: `--samples` per client thread."""
        return self.samples * (self["threads"] or 1)

    @property
    def subscriber_process_count(self) -> int:
        """Subscriber (server) processes a remote cell starts: 1 but for `each`.
        Operation fanout only: `subscriber_processes` is "one" process or "each" its own
        (None collocated: the subscribers share the publisher's process)."""
        return self["subscribers"] if self["subscriber_processes"] == "each" else 1

    def factors(self) -> dict:
        """The identifying factors, with the store's column names."""
        return dict(self.levels)

    def label(self) -> str:
        return " ".join(describe(self.levels))


@dataclass(frozen=True)
class Skipped:
    experiment: str
    driver: str
    what: str
    reason: str
    refused: bool = False  # the spec contradicts itself (open_load.refusal), not the driver


@dataclass
class Matrix:
    configurations: list[Cell] = field(default_factory=list)  # launch unset, spec order
    cells: list[Cell] = field(default_factory=list)  # every launch, in the order they run
    skipped: list[Skipped] = field(default_factory=list)
    seed: int | None = None  # of the order of the launches


def expand(spec: Spec, drivers: dict[str, DriverInfo],
           inventory: dict[str, Host] | None = None, seed: int | None = None) -> Matrix:
    """All configurations of the spec, and their launches in the order they will run, on
    the hosts of `inventory` (hosts/inventory.py; by default only `local`).

    The launches run in randomised blocks (launches/schedule.py): every
    configuration's k-th launch before any configuration's (k+1)-th, in an order
    drawn from `seed` (else the spec's `seed`, else a new one, kept in the matrix),
    so that a slow stretch of the machine touches a random few configurations of a
    block instead of biasing the ones run last or one configuration's every launch.
    """
    matrix = Matrix()
    inventory = inventory or {LOCAL: local_host()}
    for index, experiment in enumerate(spec.experiments):
        _check_names(index, experiment, effective_settings(spec, experiment), drivers)
        _check_hosts(experiment, effective_settings(spec, experiment), inventory)
    problem = size_problem(spec, drivers)
    if problem:
        raise MatrixError(problem)
    for experiment in spec.experiments:
        settings = effective_settings(spec, experiment)
        for driver_name in experiment.drivers:
            driver = drivers[driver_name]
            if not driver.available:
                matrix.skipped.append(
                    Skipped(experiment.name, driver_name, "all cells", driver.reason or "")
                )
                continue
            _expand_driver(experiment, settings, driver, matrix)
        _check_not_emptied(experiment.name, matrix)
    matrix.configurations = [dataclasses.replace(cell, position=index)
                             for index, cell in enumerate(matrix.configurations)]
    matrix.seed = next(s for s in (seed, spec.seed, new_seed()) if s is not None)
    matrix.cells = scheduled(matrix.configurations, matrix.seed)
    return matrix


def _check_not_emptied(experiment: str, matrix: Matrix) -> None:
    """An experiment with no cell left, some refused as contradictions of the spec: an
    error naming it (a run would measure nothing of it, silently)."""
    if any(cell["experiment"] == experiment for cell in matrix.configurations):
        return
    reasons = dict.fromkeys(skipped.reason for skipped in matrix.skipped
                            if skipped.experiment == experiment and skipped.refused)
    if reasons:
        raise MatrixError(f"experiment '{experiment}' has no cell to run: "
                          f"{'; '.join(reasons)}")


def scheduled(configurations: list["Cell"], seed: int) -> list["Cell"]:
    """The launches of `configurations`, each a cell with its launch number, in the order
    they run: randomised blocks drawn from `seed` (launches/schedule.py)."""
    return [dataclasses.replace(cell, levels={**cell.levels, "launch": launch})
            for launch, cell in randomised_blocks(configurations, lambda c: c.launches, seed)]


def _check_names(index: int, experiment, settings: dict,
                 drivers: dict[str, DriverInfo]) -> None:
    where = f"experiment '{experiment.name}'"

    def unknown(what: str, key: str, name: str, known: list[str], offered: str) -> MatrixError:
        return MatrixError(f"{where}: unknown {what} '{name}'{did_you_mean(name, known)}; "
                           f"{offered}: {', '.join(known)}", (index, key, name))

    for name in experiment.drivers:
        if name not in drivers:
            raise unknown("driver", "drivers", name, sorted(drivers), "known drivers")
    chosen = [drivers[name] for name in experiment.drivers if drivers[name].available]
    if not chosen:
        return  # every driver is unavailable: each is skipped with its reason
    offer = "the drivers of this experiment offer"
    operations = sorted({op for d in chosen for op in d.operations})
    for operation in experiment.operation:
        if operation not in operations:
            raise unknown("operation", "operation", operation, operations, offer)
    transports = sorted({t for d in chosen for ts in d.modes.values() for t in ts})
    for transport in settings["transports"] or []:
        if transport not in transports:
            raise unknown("transport", "transports", transport, transports, offer)
    option_keys = sorted({k for d in chosen for k in d.options} | HARNESS_OPTIONS)
    for key in settings["options"]:
        if key not in option_keys:
            raise unknown("option", "options", key, option_keys,
                          "the drivers of this experiment accept")


def _check_hosts(experiment, settings: dict, inventory: dict[str, Host]) -> None:
    """Every host a level of `hosts` names is in the inventory, and a host that another
    one must reach binds an address it can reach (not loopback)."""
    where = f"experiment '{experiment.name}'"
    for level in settings["hosts"]:
        topology = Topology.of(level)
        # A level that names subscribers puts the fan-out's servers there, not on `server`.
        fanout = "subscribers=" in (level or "")
        named = list(dict.fromkeys(
            name for mode in settings["modes"]
            for name in topology.hosts(mode, fanout, len(topology.subscribers))))
        for name in named:
            if name not in inventory:
                raise MatrixError(f"{where}: hosts {level}: no host {name!r} in the inventory "
                                  f"(its hosts: {', '.join(inventory)}); name the inventory "
                                  "with `inventory:` in the spec or `mwbench run --inventory`")
        if len(named) < 2:
            continue
        for name in named:
            if inventory[name].bind.startswith("127."):
                raise MatrixError(
                    f"{where}: hosts {level}: host {name} binds {inventory[name].bind}, "
                    "which the other hosts cannot reach: set its `bind:` in the inventory "
                    "to an address of the network between them")


def _expand_driver(experiment, settings: dict, driver: DriverInfo, matrix: Matrix) -> None:
    def skip(what: str, reason: str, refused: bool = False) -> None:
        matrix.skipped.append(Skipped(experiment.name, driver.name, what, reason, refused))

    option_keys = [k for k in settings["options"] if k in driver.options or k in HARNESS_OPTIONS]
    option_values = [[str(v) for v in settings["options"][k]] for k in option_keys]
    crossed_levels = [settings[factor.spec_key] for factor in CROSSED]

    for mode in settings["modes"]:
        if mode not in driver.modes:
            skip(f"mode {mode}", f"{driver.name} has no {mode} mode")
            continue
        for transport in _transports(mode, settings["transports"], driver, skip):
            for operation in experiment.operation:
                if operation not in driver.operations:
                    skip(f"operation {operation}", f"{driver.name} does not offer it")
                    continue
                for *crossed, (subscribers, processes), values in itertools.product(
                        *crossed_levels, _fanouts(operation, mode, settings),
                        itertools.product(*option_values)):
                    levels = {
                        "experiment": experiment.name, "driver": driver.name,
                        "transport": transport, "mode": mode, "operation": operation,
                        **{factor.name: level for factor, level in zip(CROSSED, crossed,
                                                                       strict=True)},
                        "subscribers": subscribers, "subscriber_processes": processes,
                        "options": dict(zip(option_keys, values, strict=True)) or None,
                        "launch": None,
                    }
                    levels = {name: levels[name] for name in NAMES}
                    what = " ".join(other_factors(levels, ("experiment", "driver")))
                    if reason := refusal(operation, options_of(levels)):
                        skip(what, reason, refused=True)
                        continue
                    if reason := _cannot_run(levels, driver, settings["batch"]):
                        skip(what, reason)  # named by its levels
                        continue
                    crowded = crowding_note(
                        busy_threads(mode, levels["threads"], levels["background"],
                                     subscribers), os.cpu_count() or 1)
                    matrix.configurations.append(Cell(
                        levels=levels, warmup=settings["warmup"],
                        samples=settings["samples"], launches=settings["launches"],
                        batch=settings["batch"],
                        timeout_s=settings["timeout_s"], role=experiment.role,
                        memory_limit_mb=settings["memory_limit_mb"],
                        notes=(crowded,) if crowded else (),
                    ))


def options_of(levels: dict) -> dict:
    """Every option a cell's driver gets from the spec: its `options` and the factors
    passed as one (delivery, orb, invocation)."""
    return {**(levels["options"] or {}),
            **{factor.driver_option: levels[factor.name] for factor in AS_DRIVER_OPTION
               if levels[factor.name] is not None}}


def _cannot_run(levels: dict, driver: DriverInfo, batch: int | str = "auto") -> str | None:
    """Why the driver cannot run this combination, or None."""
    if bound := _beyond_bounds(driver, levels["servants"], levels["threads"],
                               levels["subscribers"]):
        return bound
    operation = levels["operation"]
    if levels["payload_bytes"] and not driver.operations[operation].get("payload"):
        return f"operation {operation} carries no payload"
    if levels["placement"] == "cross-cpu" and levels["mode"] == "collocated":
        return "a collocated cell runs in one thread: no second CPU to use"
    if levels["placement"] == "cross-cpu" and (os.cpu_count() or 1) < 2:
        return "cross-cpu needs two CPUs"
    if reason := _cannot_place(levels, driver):
        return reason
    # The factors a driver takes as options (delivery, orb) are bound as options are: to
    # the values the driver accepts, and each value to the transports it works over.
    for option, value in options_of(levels).items():
        accepted = driver.option_values.get(option)
        if accepted is not None and str(value) not in accepted:
            return (f"{driver.name} takes {option} {', '.join(accepted)} only, not {value} "
                    "(option_values in its --describe)")
        works_over = driver.option_transports.get(option, {}).get(value)
        if works_over is not None and levels["transport"] not in works_over:
            return (f"{option}={value} works over {', '.join(works_over)} only "
                    "(option_transports in its --describe)")
    for factor in AS_DRIVER_OPTION:
        if levels[factor.name] is not None and factor.driver_option not in driver.options:
            return (f"{driver.name} has no option {factor.driver_option} (its --describe "
                    f"options: {', '.join(driver.options) or 'none'}), so it cannot be "
                    f"given {factor.spec_key} {levels[factor.name]}")
    return open_loop_problem(levels, options_of(levels), driver, batch)


def _cannot_place(levels: dict, driver: DriverInfo) -> str | None:
    """Why the level of `hosts` cannot hold this combination, or None."""
    if levels["hosts"] is None:
        return None
    topology = Topology.of(levels["hosts"])
    fanout = levels["subscribers"] is not None
    processes = (levels["subscribers"] if levels["subscriber_processes"] == "each" else 1) \
        if fanout else 1
    used = topology.hosts(levels["mode"], fanout, processes)
    if topology.nodes and driver.nodes is None:
        return (f"{driver.name} deploys no component application on nodes (no `nodes` in "
                "its --describe), so it cannot be given the hosts of nodes")
    if len(used) > 1 and driver.operations[levels["operation"]].get("one_way"):
        return (f"{levels['operation']} is timed one way, from a time another process took "
                "(one_way in --describe): across hosts that needs synchronised clocks, "
                "which mwbench does not have")
    if len(used) > 1 and (option := one_way_option(options_of(levels), driver)):
        return (f"with {option} {driver.name} times one way, from a time another process "
                "took (one_way_options in --describe): across hosts that needs synchronised "
                "clocks, which mwbench does not have")
    if len(used) > 1 and levels["transport"] in driver.host_local:
        return (f"{driver.name}'s transport {levels['transport']} cannot cross hosts "
                "(host_local in its --describe)")
    if fanout and len(set(topology.subscribers)) > processes:
        return (f"{len(set(topology.subscribers))} subscriber hosts need as many subscriber "
                f"processes; this cell has {processes} (subscriber_processes: each)")
    if levels["background"] not in (None, BACKGROUND_NONE) and used != [LOCAL]:
        return "a background load runs on this machine only, not on other hosts"
    return None


def _fanouts(operation: str, mode: str, settings: dict) -> list[tuple[int | None, str | None]]:
    """The (subscribers, subscriber_processes) pairs of an operation: the spec's for
    `fanout` (one process or each its own, remote only; 1 subscriber when unset), a
    single (None, None) for every other operation."""
    if operation != FANOUT_OPERATION:
        return [(None, None)]
    subscribers = [n or 1 for n in settings["subscribers"]]
    if mode == "collocated":
        return [(n, None) for n in dict.fromkeys(subscribers)]
    pairs = [(n, where) for n in subscribers for where in settings["subscriber_processes"]]
    # With one subscriber, "one process" and "each its own" are the same cell.
    return list(dict.fromkeys((n, "one" if n == 1 else where) for n, where in pairs))


def _beyond_bounds(driver: DriverInfo, servants: int | None, threads: int | None,
                   subscribers: int | None = None) -> str | None:
    """Why the driver cannot run this many servants, threads or subscribers (`--describe`),
    or None."""
    if subscribers is not None and driver.max_subscribers is not None \
            and subscribers > driver.max_subscribers:
        return (f"{driver.name} hosts at most {driver.max_subscribers} subscriber(s) "
                f"(max_subscribers in --describe); asked for {subscribers}")
    if servants is not None and driver.max_servants is not None \
            and servants > driver.max_servants:
        return (f"{driver.name} registers at most {driver.max_servants} servant(s) "
                f"(max_servants in --describe); asked for {servants}")
    if threads is not None and driver.max_threads is not None and threads > driver.max_threads:
        return (f"{driver.name} runs at most {driver.max_threads} client thread(s) "
                f"(max_threads in --describe); asked for {threads}")
    return None


def _transports(mode: str, requested: list[str] | None, driver: DriverInfo, skip) -> list[str]:
    offered = driver.transports(mode)
    if mode == "collocated" or requested is None:
        return offered  # collocated cells have the one transport `inproc`
    chosen = []
    for transport in requested:
        if transport in offered:
            chosen.append(transport)
        else:
            skip(f"{mode} {transport}", f"{driver.name} offers {mode} over: {', '.join(offered)}")
    return chosen
