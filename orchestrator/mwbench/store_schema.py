"""The store's SQL schema, its version, and the migrations between versions.

A database records its schema version. Opening an older one migrates it in
place, one version at a time, all in one transaction, so a database
written by any earlier mwbench keeps working; a newer one is refused rather
than misread. A fresh database is built the same way (version 1, then every
migration), so a migrated database and a fresh one have exactly the same
tables and columns, and the migrations are exercised by every run.

Version 2 (the Open CORBA Benchmarking suite) adds to `cells`:
- `background`: the background-load factor (`none` or `cpu:N`). Every cell
  measured before it existed ran without background load, so migrated rows
  read `none`, which also lets `compare` match an old run with a new one;
- `role`: the experiment's role in the combined-factor estimate, or NULL;
- `load_generator`: JSON {argv, version} of the background-load process.

Version 3 (iceoryx) adds to `cells`:
- `daemon`: JSON {program, argv, version} of the daemon the driver needed and
  the orchestrator ran for the cell (iceoryx's RouDi), or NULL for none.

Version 4 (pub/sub fan-out) adds to `cells`, both NULL but for operation `fanout`:
- `subscribers`: the subscribers of the fan-out;
- `subscriber_processes`: where they ran, `one` process or `each` its own (NULL for a
  collocated cell, where they share the publisher's). With several subscriber
  processes, `server_header` holds their headers under `processes`, and `rusage`
  and `fanout` summed over them, so that it reads like one server's.

Version 5 (runs killed outright) adds to `runs`, NULL for runs stored before:
- `pid`, `pid_start_ticks`, `boot_id`: the process that runs it, its start time
  (clock ticks since boot, as /proc gives it) and the boot it ran in, so that a
  run still `running` whose process is gone reads `abandoned` (store.py); the
  next run on the machine also writes `abandoned` (leftovers.py).

Version 6 (deployment: the deploy driver's phases) adds:
- the table `named_series`: the named series of a cell's measuring process
  (driver contract section 4, "Named series"), one row per cell and series:
  its `name`, its `position` in the result file, the series it is `part_of`
  (NULL for a root) and its values, encoded as `samples` are. Cells stored
  before have none;
- to `cells`, `assembly`: the assembly factor (`static` or `dynamic`), NULL
  for every cell that does not set it, as every cell stored before.

Version 7 (container-managed events: the ccmevents driver) adds to `cells`
`delivery` (`direct`, `channel` or `dds`) and `layer` (`component` or `object`),
NULL for every cell that does not set them, as every cell stored before.

Version 8 (several hosts) adds to `cells` `hosts`, which host each process ran
on ("client=host-1 server=host-2"; NULL: all on the machine of the run), and
to `runs` `hosts`, JSON: for each host of the inventory a run used, how it was
reached, its build and bind address, and its `mwbench env` (or why none).

Version 9 (launches as the unit of every statistic: launches/) renames the
cells' `repetition` to `launch`, the k-th launch (a new set of processes) of
its configuration: a cell stored before is one launch, as it always was.
It adds to `cells` `position`, the place of the cell's configuration in the
spec's order (NULL for a cell stored before: those ran in that order), and to
`runs` `seed`, the seed of the order of its launches (NULL for a run stored
before, whose order was the spec's, repetition by repetition),
and `launch_plan`, JSON: the time budget and what the chooser gave each
configuration, NULL for a run that took its launches and samples from the
spec. And it adds the table `calibrations`: per machine and configuration,
the variance between launches and within one, and what a launch and a
sample cost (launches/variance.py), from which a budget is spent.

Version 10 (the OpenCCM study on several ORBs) adds to `cells` `orb` (`omniorb`,
`jacorb` or `glassfish`), NULL for every cell that does not set it, as every
cell stored before.

Version 11 (the IIOP interoperability matrix: interop/) adds the table
`interop`: one row per pair of a run of `mwbench interop`, its kind, call,
payload, client and server ORB, `status` (pass, fail or skipped), the reason
(a kind of failure of interop/reasons.py, or why the pair was skipped), the
client's error line and the whole error, the median and p99 of a pair that
passed, and each side's driver and options (JSON). Runs stored before have none.

Version 12 (invocation modes and open-loop load) adds to `cells` `invocation`
(`static`, `dii`, `ami_callback`, `ami_poller`, `oneway`), `dispatch` (`static`,
`dsi`) and `load` (`closed`, `constant:RATE`, `poisson:RATE`), NULL for every cell
that does not set them, as every cell stored before (a closed loop, static
invocation and dispatch). An open-loop cell's figures (offered and achieved rate,
late sends, lost calls, the seed of its schedule) are in its `measurer_header`,
under `load`. It adds the table `saturation`: one row per configuration of a run
of `mwbench saturate`, the p99 bound it searched under, the highest rate that met
it (NULL: none did) and every rate it tried, with the verdict (JSON); the probes
themselves are the run's cells.

Version 13 (a bound at a percentile the user chooses) renames the saturation
table's `p99_bound_us` to `bound_us` and adds `percentile` (50, 90, 99 or
99.9), the percentile the bound was judged at: 99 for every search stored
before, the only one `mwbench saturate` judged. A probe's figure is stored
under its statistic's key (p90_us, p99_us, ...), so the probes stored before
read as they are.
"""

import sqlite3

from .factors import BY_NAME, NAMES

SCHEMA_VERSION = 13

# The factors that identify a cell within a run, one column each (factors.py declares
# them; a new one needs a migration below that adds its column).
FACTOR_COLUMNS = NAMES
STAT_COLUMNS = (
    "samples",
    "min_us",
    "p25_us",
    "p50_us",
    "p75_us",
    "p90_us",
    "p99_us",
    "p999_us",
    "max_us",
    "mean_us",
    "std_us",
    "throughput_per_s",
)

# Version 1 exactly as mwbench 0.1.0 created it: frozen, the base of every migration.
V1_SCHEMA = f"""
CREATE TABLE schema_info (version INTEGER NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    suite TEXT NOT NULL,
    spec_path TEXT NOT NULL,
    spec_text TEXT NOT NULL,
    environment TEXT NOT NULL,      -- JSON, as `mwbench env --json` prints it
    mwbench_version TEXT NOT NULL,
    started_utc TEXT NOT NULL,
    finished_utc TEXT,
    status TEXT NOT NULL            -- running | finished | interrupted (| abandoned, v5)
);
CREATE TABLE cells (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    experiment TEXT NOT NULL,
    driver TEXT NOT NULL,
    transport TEXT,
    mode TEXT,
    operation TEXT NOT NULL,
    payload_bytes INTEGER,
    placement TEXT,
    idle_hold INTEGER,              -- requested (factor)
    idle_hold_held INTEGER,         -- actually held during the cell
    priority INTEGER,
    servants INTEGER,
    threads INTEGER,
    options TEXT,                   -- JSON object, or NULL
    repetition INTEGER NOT NULL,
    client_cpu INTEGER,
    server_cpu INTEGER,
    status TEXT NOT NULL,           -- ok | failed
    error TEXT,
    batch_size INTEGER,
    {", ".join(f"{c} REAL" for c in STAT_COLUMNS)},
    measurer_header TEXT,           -- JSON header of the client or collocated result file
    server_header TEXT,             -- JSON header of the server result file, if any
    notes TEXT,                     -- JSON list of warnings about this cell
    started_utc TEXT NOT NULL,
    duration_s REAL NOT NULL
);
CREATE INDEX cells_by_run ON cells(run_id);
CREATE TABLE samples (
    cell_id INTEGER PRIMARY KEY REFERENCES cells(id),
    encoding TEXT NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
);
"""


def add_factor_column(name: str) -> str:
    """The statement of a migration that adds the column of a new factor (factors.py)."""
    return f"ALTER TABLE cells ADD COLUMN {name} {BY_NAME[name].sql}"


NAMED_SERIES_TABLE = """
CREATE TABLE named_series (
    cell_id INTEGER NOT NULL REFERENCES cells(id),
    name TEXT NOT NULL,
    position INTEGER NOT NULL,      -- its place among the cell's series, from 0, as written
    part_of TEXT,                   -- the name of the series it is a part of, or NULL
    encoding TEXT NOT NULL,         -- as samples.encoding
    count INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (cell_id, name)
)"""

CALIBRATIONS_TABLE = """
CREATE TABLE calibrations (
    machine TEXT NOT NULL,          -- launches/calibration.py: what makes two machines differ
    configuration TEXT NOT NULL,    -- JSON of its factors, but the experiment and the launch
    between_launches REAL NOT NULL, -- relative variance between launch medians
    within_launch REAL NOT NULL,    -- relative variance of a launch median, times its samples
    launch_cost_s REAL NOT NULL,
    sample_cost_s REAL NOT NULL,
    launches INTEGER NOT NULL,      -- measured from
    samples INTEGER NOT NULL,
    measured_utc TEXT NOT NULL,
    run_id INTEGER REFERENCES runs(id),
    PRIMARY KEY (machine, configuration)
)"""

INTEROP_TABLE = """
CREATE TABLE interop (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    kind TEXT NOT NULL,             -- object | component
    operation TEXT NOT NULL,        -- roundtrip | octets_inout | records
    payload_bytes INTEGER NOT NULL,
    client_orb TEXT NOT NULL,
    server_orb TEXT NOT NULL,
    status TEXT NOT NULL,           -- pass | fail | skipped
    reason TEXT,                    -- fail: a kind of interop/reasons.py; skipped: why
    line TEXT,                      -- fail: the client's error line, raw
    error TEXT,                     -- fail: the whole error, with the processes' tails
    p50_us REAL,                    -- pass: the median over the pair's samples
    p99_us REAL,
    samples INTEGER,
    client TEXT NOT NULL,           -- JSON {driver, options} of the client side
    server TEXT NOT NULL,           -- JSON {driver, options} of the server side
    duration_s REAL NOT NULL,
    PRIMARY KEY (run_id, kind, operation, payload_bytes, client_orb, server_orb)
)"""

# As version 12 created it (frozen, as SQLite keeps its text); version 13 renames
# p99_bound_us to bound_us and adds percentile.
SATURATION_TABLE = """
CREATE TABLE saturation (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    configuration TEXT NOT NULL,    -- JSON of its factors, but the load and the launch
    kind TEXT NOT NULL,             -- the open loop searched: constant | poisson
    p99_bound_us REAL NOT NULL,
    max_rate_per_s REAL,            -- the highest rate that met the bound; NULL: none did
    reason TEXT NOT NULL,           -- why the search stopped there, as printed
    probes TEXT NOT NULL,           -- JSON list: rate, p99_us, achieved_fraction, verdict
    PRIMARY KEY (run_id, configuration)
)"""

# MIGRATIONS[n] takes a database from version n to n + 1.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE cells ADD COLUMN background TEXT NOT NULL DEFAULT 'none'",
        "ALTER TABLE cells ADD COLUMN role TEXT",
        "ALTER TABLE cells ADD COLUMN load_generator TEXT",
    ),
    2: ("ALTER TABLE cells ADD COLUMN daemon TEXT",),
    3: (
        "ALTER TABLE cells ADD COLUMN subscribers INTEGER",
        "ALTER TABLE cells ADD COLUMN subscriber_processes TEXT",
    ),
    4: (
        "ALTER TABLE runs ADD COLUMN pid INTEGER",
        "ALTER TABLE runs ADD COLUMN pid_start_ticks INTEGER",
        "ALTER TABLE runs ADD COLUMN boot_id TEXT",
    ),
    5: (NAMED_SERIES_TABLE, add_factor_column("assembly")),
    6: (add_factor_column("delivery"), add_factor_column("layer")),
    7: (add_factor_column("hosts"), "ALTER TABLE runs ADD COLUMN hosts TEXT"),
    8: (
        "ALTER TABLE cells RENAME COLUMN repetition TO launch",
        "ALTER TABLE cells ADD COLUMN position INTEGER",
        "ALTER TABLE runs ADD COLUMN seed INTEGER",
        "ALTER TABLE runs ADD COLUMN launch_plan TEXT",
        CALIBRATIONS_TABLE,
    ),
    9: (add_factor_column("orb"),),
    10: (INTEROP_TABLE,),
    11: (add_factor_column("invocation"), add_factor_column("dispatch"),
         add_factor_column("load"), SATURATION_TABLE),
    12: (
        "ALTER TABLE saturation RENAME COLUMN p99_bound_us TO bound_us",
        "ALTER TABLE saturation ADD COLUMN percentile REAL NOT NULL DEFAULT 99",
    ),
}


def create(connection: sqlite3.Connection) -> None:
    """A fresh database at SCHEMA_VERSION: version 1, then every migration. The caller
    holds the write lock (BEGIN IMMEDIATE); this commits."""
    for statement in V1_SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute("INSERT INTO schema_info VALUES (1)")
    _steps(connection, 1)
    connection.commit()


def migrate(connection: sqlite3.Connection, version: int) -> None:
    """Bring a database of `version` (<= SCHEMA_VERSION) up to SCHEMA_VERSION, in one
    transaction: the caller holds the write lock (BEGIN IMMEDIATE); this commits."""
    _steps(connection, version)
    connection.commit()


def _steps(connection: sqlite3.Connection, version: int) -> None:
    while version < SCHEMA_VERSION:
        for statement in MIGRATIONS[version]:
            connection.execute(statement)
        version += 1
        connection.execute("UPDATE schema_info SET version = ?", (version,))
