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
  migration that adds it, MIGRATIONS there); a bool level is stored 0/1 and
  read back as a bool (store.py), written true/false in CSV;
- the reader: how a level is written in labels, tables and messages, and
  whether an unset or default level is shown at all;
- the tables of configurations (the end-of-run summary, `mwbench compare`,
  the report): the column it has there (`column`), or its place among the
  "other factors" shown when set; whether it tells configurations apart
  (every factor but the launch: compare matches on these, the exports
  group by them);
- the comparisons: whether the raw-socket baseline must share it
  (baseline.py), whether a result file echoes it in its header (judge.py),
  whether it may be named in a `factorial:` design;
- the docs: its row of the factor table of docs/spec.md (`doc`), which
  `python -m mwbench.factor_table --write` generates from these declarations.

Adding a factor is one declaration below, one migration, the driver that takes it,
and the docs table regenerated (DEVELOPERS.md, "Adding a factor").
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from .hosts import topology
from .load_level import validated as _load

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
    measurer_only: bool = False  # the argument goes to the measuring process alone (--load)
    # Passed as `--option NAME=LEVEL` (when set) to drivers that declare the option NAME:
    # a setting of some drivers that mwbench names, labels and stores as a factor.
    driver_option: str | None = None
    baseline: bool = False  # the raw-socket baseline of a cell must share its level
    unset: Any = None  # the level a driver assumes when it is not passed (threads: 1)
    echoed: str | None = None  # the result header's key that repeats the level
    swept: bool = False  # a number the report draws lines along
    in_defaults: bool = True  # may be set in `defaults` (not only in an experiment)
    required: bool = False  # an experiment must set it
    # Docs (docs/spec.md's factor table): what it means; its levels and its default as the
    # table writes them, when the level type and `default` do not say it (None: derived).
    doc: str = ""
    values_doc: str | None = None
    default_doc: str | None = None
    column: str | None = None  # its own column in tables of configurations, so headed
    configuration: bool = True  # tells configurations apart (all but the launch)

    @property
    def boolean(self) -> bool:
        """Stored as 0/1, read back as false/true (store.py), written true/false in CSV."""
        return self.level is bool

    def level_or_unset(self, level: Any) -> Any:
        return self.unset if level is None else level


def _named(name: str) -> Callable[[Any], str | None]:
    return lambda level: None if level is None else f"{name} {level}"


def _after(name: str) -> Callable[[Any], str | None]:
    return lambda level: None if level is None else f"{level} {name}"


def _options_text(levels: dict | None) -> str | None:
    return " ".join(f"{key}={value}" for key, value in (levels or {}).items()) or None


def _driver_option(name: str, level: Any, doc: str) -> "Factor":
    """A factor some drivers take, as their option NAME: unset unless a spec sets it,
    crossed, shown as "LEVEL NAME" (`static assembly`)."""
    return Factor(name, name, level, (None,), "TEXT", _after(name), crossed=True,
                  driver_option=name, doc=doc)


_WHERE = {"one": "in one process", "each": "a process each"}
_HOSTS_DOC = (
    "which host of the inventory each process runs on (`docs/hosts.md`): `client` the "
    "measuring process (a collocated cell's only one), `server` the server, `subscribers` the "
    "hosts of a fan-out's subscriber processes, in turn (several need `subscriber_processes: "
    "each`), `nodes` the hosts of a deployment's nodes by their names in the plan (a driver "
    "with `nodes` in its `--describe`: `deploy`, dynamic assembly); a role not named runs on "
    "`local`, subscribers on the server's host, a plan's nodes not named with the process "
    "that deploys. A host the inventory lacks, or hosts that must reach each other while one "
    "binds loopback, is an error before anything runs; a transport that cannot cross hosts "
    "(`host_local` in the driver's `--describe`) and a background load off this machine are "
    "skipped. Stored as text, `client=host-1 server=host-2` "
    "(`nodes=Display:host-2,Sensors:host-1`), which is a level too")

FACTORS: tuple[Factor, ...] = (
    Factor("experiment", None, str, (), "TEXT NOT NULL", str, column="experiment",
           doc="the experiment's `name`; each is a section of the report"),
    Factor("driver", "drivers", str, (), "TEXT NOT NULL", str, required=True,
           in_defaults=False, column="driver", values_doc="driver names (`mwbench list`)",
           doc="which middleware"),
    Factor("transport", "transports", str, (), "TEXT", str, argument="--transport",
           echoed="transport", column="transport",
           values_doc="`tcp`, `uds`, `udp`, `shm`, … (`mwbench list`)",
           default_doc="every transport the driver has",
           doc="remote transports; each driver runs those it supports. Collocated cells "
               "always use `inproc`. `uds` is a Unix-domain socket in every driver; its old "
               "names `unix` (omniORB) and `ipc` (ZeroMQ) are read as `uds`, with a note naming "
               "the line, so that the stored cell, its label and `compare` see one name"),
    Factor("mode", "modes", Literal["remote", "collocated"], ("remote",), "TEXT", str,
           column="mode", doc="two processes, or client and servant in one"),
    Factor("operation", "operation", str, (), "TEXT NOT NULL", str, argument="--operation",
           baseline=True, echoed="operation", required=True, in_defaults=False,
           column="op", values_doc="`roundtrip`, `ping`, `octets`, `octets_out`, "
           "`octets_inout`, `records`, `fanout` (what the drivers offer; `mwbench list`)",
           doc="what one call does"),
    Factor("payload_bytes", "payload_bytes", Annotated[int, Field(ge=0, le=2**30)], (0,),
           "INTEGER", lambda n: f"{n} B", crossed=True, argument="--payload-bytes",
           baseline=True, echoed="payload_bytes", swept=True, column="bytes",
           values_doc="integers ≥ 0",
           doc="payload of `octets`; operations without payload take only 0"),
    Factor("placement", "placement", Literal["same-cpu", "cross-cpu", "unpinned"],
           ("same-cpu",), "TEXT", str, crossed=True, baseline=True, column="placement",
           doc="where the client and the server run (README, \"Reading results\")"),
    Factor("idle_hold", "idle_hold", bool, (True,), "INTEGER",
           lambda held: None if held is None else ("hold" if held else "no hold"),
           crossed=True, baseline=True, column="placement",
           doc="hold `/dev/cpu_dma_latency` at 0 during the cell"),
    Factor("priority", "priority", Annotated[int, Field(ge=0, le=99)], (0,), "INTEGER",
           lambda p: f"prio {p}" if p else None, crossed=True, argument="--priority",
           baseline=True, unset=0, values_doc="0–99",
           doc="`SCHED_FIFO` priority of both ends (0: the normal policy)"),
    Factor("servants", "servants", Annotated[int, Field(ge=1, le=10**7)], (None,),
           "INTEGER", _named("servants"), crossed=True, argument="--servants", unset=1,
           echoed="servants", swept=True, values_doc="integers ≥ 1",
           doc="servants registered in the server"),
    Factor("threads", "threads", Annotated[int, Field(ge=1, le=1024)], (None,), "INTEGER",
           _named("threads"), crossed=True, argument="--threads", baseline=True, unset=1,
           echoed="threads", swept=True, values_doc="integers ≥ 1",
           doc="client threads, each calling in a closed loop"),
    Factor("subscribers", "subscribers", Annotated[int, Field(ge=1, le=1024)], (None,),
           "INTEGER", _named("subscribers"), baseline=True, swept=True,
           values_doc="integers ≥ 1", default_doc="1",
           doc="operation `fanout` only: the subscribers of one publisher "
               "(docs/driver-contract-fanout.md)"),
    Factor("subscriber_processes", "subscriber_processes", Literal["one", "each"], ("one",),
           "TEXT", lambda where: _WHERE.get(where, where), baseline=True,
           doc="operation `fanout`, remote only: all subscribers in one process, or each in "
               "a process of its own; with one subscriber the two are the same cell, run "
               "once. Collocated fan-outs have the subscribers in the publisher's process"),
    _driver_option("orb", Literal["omniorb", "jacorb", "glassfish"],
                   "which ORB carries the calls (the OpenCCM study's factor): omniORB (the "
                   "`omniorb` and `ccm` drivers), JacORB or the GlassFish ORB (the `java` "
                   "driver); a driver is given only the ORBs its `--describe` accepts "
                   "(`option_values`), so `drivers: [ccm, java]` with all three is three "
                   "configurations, not six"),
    _driver_option("assembly", Literal["static", "dynamic"],
                   "how a component application is put together (the `deploy` driver): its "
                   "plan compiled into a program (`static`) or read and carried out at run "
                   "time (`dynamic`)"),
    _driver_option("delivery", Literal["direct", "channel", "dds", "zmq"],
                   "who delivers a component's events (the `ccmevents` driver, the "
                   "container-managed pub/sub study): one call per subscriber (`direct`), "
                   "the containers' event channels (`channel`), a DDS topic (`dds`), or ZeroMQ "
                   "between the containers (`zmq`)"),
    _driver_option("layer", Literal["component", "object"],
                   "whether components or plain objects make and serve the calls: in the "
                   "`ccm` driver a client object calling a servant (`object`, scenario "
                   "obj-obj) or a component using the interface calling one that provides it "
                   "(`component`, comp-comp); in the `ccmevents` driver, who uses the "
                   "delivery"),
    _driver_option("invocation",
                   Literal["static", "dii", "ami_callback", "ami_poller", "oneway"],
                   "how the client invokes (Open CORBA Benchmarking's client mechanisms, the "
                   "`omniorb`, `ccm` and `java` drivers): a static stub, the DII "
                   "(`CORBA::Request`), AMI with a reply handler or with a poller, or a "
                   "`oneway` call, which has no reply and is timed as its delivery (client "
                   "send to servant entry, one host only); `oneway` calls `ping` only (`oneway "
                   "void ping_oneway()`): with another operation it is skipped, with the "
                   "reason"),
    _driver_option("dispatch", Literal["static", "dsi"],
                   "how the server dispatches to the servant: a static skeleton, or the DSI "
                   "(a `DynamicImplementation` servant)"),
    Factor("options", "options", str | int, (), "TEXT", _options_text, echoed="options",
           values_doc="mapping of key to value or list", default_doc="none",
           doc="driver-specific settings, passed as `--option key=value` to the drivers "
               "that declare the key (`mwbench list` shows them)"),
    Factor("background", "background", Annotated[str, BeforeValidator(_background)],
           (BACKGROUND_NONE,), "TEXT NOT NULL DEFAULT 'none'",
           lambda b: None if b in (None, BACKGROUND_NONE) else f"background {b}",
           crossed=True, baseline=True, unset=BACKGROUND_NONE,
           values_doc="`none`, `cpu:N` (N ≥ 1)",
           doc="background load during the measurement: `cpu:N` runs `stress-ng --cpu N` "
               "(Debian's stress-ng) from after the server has published its endpoint until "
               "the client has ended; the exact command and stress-ng's version are stored "
               "with the cell (`load_generator` in the export). A missing stress-ng, or one "
               "that exits early, fails the cell. Quote it in YAML flow lists: `[\"cpu:2\"]`"),
    Factor("load", "load", Annotated[str, BeforeValidator(_load)], (None,), "TEXT",
           _after("load"), crossed=True, argument="--load", measurer_only=True, baseline=True,
           unset="closed", values_doc="`closed`, `constant:RATE`, `poisson:RATE` (RATE "
           "calls or events per second, a positive finite number: `1000`, `2.5e4`)",
           default_doc="not set: `closed`",
           doc="how the measuring process sends: `closed` waits for each reply before the "
               "next call; `constant` and `poisson` are open loops, sending on a schedule of "
               "intended start times (even or exponential gaps) without waiting, each "
               "sample the response time from its intended start (driver contract, "
               "`--load`). Open loops run one client thread, batch 1, and the operations a "
               "driver lists in `open_loop` (`--describe`); other cells are skipped, with "
               "the reason. Each launch's Poisson schedule is seeded from its "
               "configuration and launch (`--load-seed`), so a rerun sends alike. A cell "
               "whose warm-up and samples at its rate outlast `timeout_s`, or open-loop "
               "cells that outlast `--budget`, are an error before anything runs. Quote it "
               "in YAML flow lists: `[\"poisson:1000\"]`"),
    Factor("hosts", "hosts", Annotated[str, BeforeValidator(topology.canonical)], (None,),
           "TEXT", lambda level: None if level is None else f"on {level}", crossed=True,
           baseline=True, values_doc="a host's name, or a mapping of roles to hosts: "
           "`{client: NAME, server: NAME, subscribers: [NAME, ...], nodes: {NODE: NAME, ...}}`",
           default_doc="not set: every process on this machine", doc=_HOSTS_DOC),
    # Not a condition of the baseline: a cell is read against its baseline launch by launch.
    Factor("launch", None, int, (), "INTEGER NOT NULL",
           lambda k: None if k is None else f"launch {k}", configuration=False,
           doc="the k-th launch of its configuration, 1 to `launches`, each a new set of "
               "processes (launches/)"),
)

BY_NAME = {factor.name: factor for factor in FACTORS}
NAMES = tuple(BY_NAME)
# The factors that tell configurations apart: every one but the launch. Two runs are
# compared, and configurations grouped and exported, on these.
CONFIGURATION = tuple(factor.name for factor in FACTORS if factor.configuration)
# The factors that tables of configurations give a column of their own (`column`), and
# those columns' headings, in order.
COLUMNS = tuple(factor.name for factor in FACTORS if factor.column)
HEADINGS = tuple(dict.fromkeys(factor.column for factor in FACTORS if factor.column))
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
    names = NAMES if names is None else names
    texts = (BY_NAME[name].text(levels.get(name)) for name in names)
    return [text for text in texts if text]


def column_text(levels: dict, heading: str) -> str:
    """A configuration's cell in the column `heading` of a table ("-" when empty)."""
    names = [factor.name for factor in FACTORS if factor.column == heading]
    return " ".join(describe(levels, names)) or "-"


def other_factors(levels: dict, columns: tuple[str, ...] = COLUMNS) -> list[str]:
    """The levels of a configuration that a table gives no column of its own (`columns`),
    as a reader sees them (options in key order): every factor a cell sets is then in
    its row, in a column or among these."""
    sorted_options = dict(sorted((levels.get("options") or {}).items())) or None
    others = [name for name in CONFIGURATION if name not in columns]
    return describe({**levels, "options": sorted_options}, others)
