"""Every factor of a cell, declared once.

A factor is what tells two cells of a run apart: the driver, the payload, the
placement, the client threads, ... Each is declared here once, with all that
mwbench does with it, and everything else derives from these declarations:

- the spec: its key, the type of one level, its default (spec.py builds the
  models of `defaults` and experiments from them);
- the matrix: whether it is crossed with the others as it stands (matrix.py;
  driver, mode, transport, operation and the fan-out pair have rules of
  their own there);
- the driver: the argument that passes a level, or the driver option it is
  passed as, `--option NAME=LEVEL` (cell_processes.py; the matrix skips a
  cell whose driver does not declare that option);
- the store: the column (store_schema.py; a new factor also needs a
  migration that adds it, MIGRATIONS there);
- the reader: how a level is written in labels, tables and messages, and
  whether an unset or default level is shown at all;
- the comparisons: whether the raw-socket baseline must share it
  (baseline.py), whether a result file echoes it in its header (judge.py),
  whether it may be named in a `factorial:` design.

Adding a factor is one declaration below and one migration.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from .hosts import topology

BACKGROUND_NONE = "none"
FANOUT_OPERATION = "fanout"  # the operation whose meaning the driver contract fixes
_BACKGROUND = re.compile(r"cpu:([1-9][0-9]*)")


def background_workers(value: str) -> int:
    """CPU-burning workers of a `background` level: 0 for `none`, N for `cpu:N`."""
    if value == BACKGROUND_NONE:
        return 0
    match = _BACKGROUND.fullmatch(value)
    if match is None:
        raise ValueError(f"background {value!r} is not valid: use none, or cpu:N with N >= 1 "
                         "(N CPU-burning stress-ng workers during the measurement)")
    return int(match.group(1))


def _background(value: Any) -> str:
    # YAML reads `none` as a string; a bare number or `cpu: 2` is a mistake worth naming.
    if not isinstance(value, str):
        raise ValueError(f"background {value!r} is not valid: use none, or cpu:N with N >= 1")
    background_workers(value)
    return value


@dataclass(frozen=True)
class Factor:
    """One factor: see the module's documentation for what each field feeds."""

    name: str  # the cell's key, the store column, the export key, the `factorial:` name
    spec_key: str | None  # the spec key of its levels; None: not set in a spec
    level: Any  # the type of one level in a spec (pydantic)
    default: tuple  # the levels when neither the experiment nor `defaults` sets it
    sql: str  # the type of its store column
    text: Callable[[Any], str | None]  # a level as a reader sees it; None: not shown
    crossed: bool = False  # crossed with the others as it stands (matrix.py)
    argument: str | None = None  # the driver argument of a level other than `unset`
    # Passed as `--option NAME=LEVEL` (when set) to drivers that declare the option NAME:
    # a setting of some drivers that mwbench names, labels and stores as a factor.
    driver_option: str | None = None
    baseline: bool = False  # the raw-socket baseline of a cell must share its level
    unset: Any = None  # the level a driver assumes when it is not passed (threads: 1)
    echoed: str | None = None  # the result header's key that repeats the level
    swept: bool = False  # a number the report draws lines along
    in_defaults: bool = True  # may be set in `defaults` (not only in an experiment)
    required: bool = False  # an experiment must set it

    def level_or_unset(self, level: Any) -> Any:
        return self.unset if level is None else level


def _named(name: str) -> Callable[[Any], str | None]:
    return lambda level: None if level is None else f"{name} {level}"


def _after(name: str) -> Callable[[Any], str | None]:
    return lambda level: None if level is None else f"{level} {name}"


def _options_text(levels: dict | None) -> str | None:
    return " ".join(f"{key}={value}" for key, value in (levels or {}).items()) or None


_WHERE = {"one": "in one process", "each": "a process each"}

FACTORS: tuple[Factor, ...] = (
    Factor("experiment", None, str, (), "TEXT NOT NULL", str),
    Factor("driver", "drivers", str, (), "TEXT NOT NULL", str, required=True,
           in_defaults=False),
    Factor("transport", "transports", str, (), "TEXT", str, argument="--transport",
           echoed="transport"),
    Factor("mode", "modes", Literal["remote", "collocated"], ("remote",), "TEXT", str),
    Factor("operation", "operation", str, (), "TEXT NOT NULL", str, argument="--operation",
           baseline=True, echoed="operation", required=True, in_defaults=False),
    Factor("payload_bytes", "payload_bytes", Annotated[int, Field(ge=0, le=2**30)], (0,),
           "INTEGER", lambda n: f"{n} B", crossed=True, argument="--payload-bytes",
           baseline=True, echoed="payload_bytes", swept=True),
    Factor("placement", "placement", Literal["same-cpu", "cross-cpu", "unpinned"],
           ("same-cpu",), "TEXT", str, crossed=True, baseline=True),
    Factor("idle_hold", "idle_hold", bool, (True,), "INTEGER",
           lambda held: None if held is None else ("hold" if held else "no hold"),
           crossed=True, baseline=True),
    Factor("priority", "priority", Annotated[int, Field(ge=0, le=99)], (0,), "INTEGER",
           lambda p: f"prio {p}" if p else None, crossed=True, argument="--priority",
           baseline=True, unset=0),
    Factor("servants", "servants", Annotated[int, Field(ge=1, le=10**7)], (None,),
           "INTEGER", _named("servants"), crossed=True, argument="--servants", unset=1,
           echoed="servants", swept=True),
    Factor("threads", "threads", Annotated[int, Field(ge=1, le=1024)], (None,), "INTEGER",
           _named("threads"), crossed=True, argument="--threads", baseline=True, unset=1,
           echoed="threads", swept=True),
    Factor("subscribers", "subscribers", Annotated[int, Field(ge=1, le=1024)], (None,),
           "INTEGER", _named("subscribers"), baseline=True, swept=True),
    Factor("subscriber_processes", "subscriber_processes", Literal["one", "each"], ("one",),
           "TEXT", lambda where: _WHERE.get(where, where), baseline=True),
    # How a component application is put together (the deploy driver): its plan compiled
    # into a program, or read and carried out at run time.
    Factor("assembly", "assembly", Literal["static", "dynamic"], (None,), "TEXT",
           _after("assembly"), crossed=True, driver_option="assembly"),
    # Who delivers a component's events (the container-managed pub/sub study, the ccmevents
    # driver): one call per subscriber, the containers' event channels, or a DDS topic;
    # and whether components or plain objects use that delivery.
    Factor("delivery", "delivery", Literal["direct", "channel", "dds", "zmq"], (None,), "TEXT",
           _after("delivery"), crossed=True, driver_option="delivery"),
    Factor("layer", "layer", Literal["component", "object"], (None,), "TEXT", _after("layer"),
           crossed=True, driver_option="layer"),
    Factor("options", "options", str | int, (), "TEXT", _options_text, echoed="options"),
    Factor("background", "background", Annotated[str, BeforeValidator(_background)],
           (BACKGROUND_NONE,), "TEXT NOT NULL DEFAULT 'none'",
           lambda b: None if b in (None, BACKGROUND_NONE) else f"background {b}",
           crossed=True, baseline=True, unset=BACKGROUND_NONE),
    # Which host each process runs on (hosts/topology.py): None, every process here.
    Factor("hosts", "hosts", Annotated[str, BeforeValidator(topology.canonical)], (None,),
           "TEXT", lambda level: None if level is None else f"on {level}", crossed=True,
           baseline=True),
    # The k-th launch of a configuration: a new set of processes (launches/). Not a
    # condition of the baseline: a cell is read against its baseline launch by launch.
    Factor("launch", None, int, (), "INTEGER NOT NULL",
           lambda k: None if k is None else f"launch {k}"),
)

BY_NAME = {factor.name: factor for factor in FACTORS}
NAMES = tuple(BY_NAME)
# The factors a spec sets, by their spec key.
BY_SPEC_KEY = {factor.spec_key: factor for factor in FACTORS if factor.spec_key}


def driver_options(levels: dict) -> dict:
    """The `--option` settings of a cell's driver processes: the spec's `options`, then
    each factor passed as a driver option (`driver_option`) that the cell sets. The spec
    cannot set both for one key (spec.py refuses it)."""
    options = dict(levels.get("options") or {})
    for factor in FACTORS:
        if factor.driver_option and levels.get(factor.name) is not None:
            options[factor.driver_option] = levels[factor.name]
    return options


def describe(levels: dict, names: tuple[str, ...] | list[str] | None = None) -> list[str]:
    """The levels of `names` (default: every factor) as a reader sees them, leaving out
    those that are unset or not worth showing (priority 0, no background)."""
    texts = (BY_NAME[name].text(levels.get(name)) for name in (names or NAMES))
    return [text for text in texts if text]
