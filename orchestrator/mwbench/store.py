"""The results store: one SQLite database, one row per run and per cell.

Each cell is written in a transaction of its own as soon as it ends, so a
crash or Ctrl-C loses nothing already measured. Raw samples are kept
(zlib-compressed little-endian int64, exactly as the driver wrote them) so
that every statistic, plot or export can be recomputed later; so are the
named series of the cell (the parts the driver timed inside each sample),
one row each, encoded the same way. Cells come back from one method with
their columns decoded, samples and named series from one method each.

The schema carries a version (store_schema.py): an older database is
migrated in place when it is opened, a newer one is refused rather than
misread.
"""

import json
import os
import platform
import sqlite3
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from . import store_schema
from .factors import BACKGROUND_NONE, FACTORS
from .ledger import boot_id, is_alive, start_ticks
from .named_series import NamedSeries
from .paths import make_parent
from .store_schema import FACTOR_COLUMNS, SCHEMA_VERSION, STAT_COLUMNS

SAMPLE_ENCODING = "zlib-int64le"
LOCK_TIMEOUT_S = 30.0  # how long to wait for another process's write (a cell, a migration)

__all__ = ["FACTOR_COLUMNS", "SCHEMA_VERSION", "STAT_COLUMNS", "CellRecord", "Store",
           "StoreError"]


class StoreError(Exception):
    """The database is missing, unreadable, or of another schema."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class CellRecord:
    factors: dict  # keys of FACTOR_COLUMNS
    status: str
    error: str | None = None
    client_cpu: int | None = None
    server_cpu: int | None = None
    idle_hold_held: bool | None = None
    batch_size: int | None = None
    stats: dict | None = None  # keys of STAT_COLUMNS
    measurer_header: dict | None = None
    server_header: dict | None = None
    notes: list[str] = field(default_factory=list)
    role: str | None = None  # the experiment's role in the combined-factor estimate
    load_generator: dict | None = None  # {"argv": [...], "version": ...} of the background load
    daemon: dict | None = None  # {"program", "argv", "version"} of the middleware's daemon
    samples_ns: np.ndarray | None = None
    position: int | None = None  # its configuration's place in the spec's order
    named_series: NamedSeries | None = None  # the parts timed inside each sample, if any
    started_utc: str = field(default_factory=utc_now)
    duration_s: float = 0.0


class Store:
    def __init__(self, connection: sqlite3.Connection, path: Path):
        self._db = connection
        self.path = path

    @classmethod
    def create_or_open(cls, path: Path) -> "Store":
        """The database at `path`, created if there is none (safe when two runs create
        the same database at once: one creates it, the other waits and opens it)."""
        path = Path(path)
        if path.is_dir():
            raise StoreError(f"{path}: is a directory, not a database file")
        try:
            make_parent(path)
        except OSError as error:
            raise StoreError(f"{path.parent}: cannot create the database's directory: "
                             f"{error.strerror}") from None
        return cls._connect(path, create=True)

    @classmethod
    def open_existing(cls, path: Path) -> "Store":
        path = Path(path)
        if not path.is_file():
            raise StoreError(f"{path}: no such database (run `mwbench run SPEC --db {path}` first)")
        return cls._connect(path, create=False)

    @classmethod
    def _connect(cls, path: Path, create: bool) -> "Store":
        try:
            connection = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S)
        except sqlite3.Error as error:
            raise StoreError(f"{path}: cannot open the database: {error}") from None
        store = cls(connection, path)
        try:
            store._prepare(create)
        except sqlite3.OperationalError as error:  # read-only, locked too long, disk full
            connection.close()
            raise StoreError(f"{path}: cannot use the database: {error}") from None
        except sqlite3.DatabaseError as error:
            connection.close()
            raise StoreError(f"{path}: not an mwbench database ({error})") from None
        except StoreError:
            connection.close()
            raise
        return store

    def close(self) -> None:
        self._db.close()

    def _prepare(self, create: bool) -> None:
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        version = self._version()
        if version == SCHEMA_VERSION:
            return
        if version is None and not create:
            raise StoreError(f"{self.path}: not an mwbench database (no schema_info table)")
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: database schema version {version}; this mwbench uses "
                f"version {SCHEMA_VERSION} (a newer mwbench wrote it)"
            )
        # Creating or migrating: one process at a time, and the version read again
        # under the lock, since another may have done it meanwhile.
        self._db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version is None:
                store_schema.create(self._db)
            elif version < SCHEMA_VERSION:
                try:
                    store_schema.migrate(self._db, version)
                except sqlite3.DatabaseError as error:
                    raise StoreError(f"{self.path}: cannot migrate schema version {version} "
                                     f"to {SCHEMA_VERSION}: {error}") from None
        finally:
            if self._db.in_transaction:
                self._db.rollback()

    def _version(self) -> int | None:
        """The schema version, None for a database without mwbench's tables."""
        has_schema = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_info'"
        ).fetchone()
        if not has_schema:
            return None
        row = self._db.execute("SELECT version FROM schema_info").fetchone()
        if row is None or not isinstance(row[0], int):
            raise StoreError(f"{self.path}: not an mwbench database (no schema version)")
        return row[0]

    # --- runs -------------------------------------------------------------

    def begin_run(self, suite: str, spec_path: str, spec_text: str, environment: dict,
                  mwbench_version: str, hosts: dict | None = None, seed: int | None = None,
                  launch_plan: dict | None = None) -> int:
        """A new run, `running`, owned by this process (its pid, start time and boot);
        `hosts`: the disclosure of the other hosts it uses (hosts/disclosure.py); `seed`:
        of the order of its launches; `launch_plan`: what a budget chose (launches/)."""
        pid = os.getpid()
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (suite, spec_path, spec_text, environment, mwbench_version,"
                " started_utc, status, pid, pid_start_ticks, boot_id, hosts, seed, launch_plan)"
                " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)",
                (suite, spec_path, spec_text, json.dumps(environment), mwbench_version,
                 utc_now(), pid, start_ticks(pid), boot_id(), _json_or_none(hosts), seed,
                 _json_or_none(launch_plan)),
            )
        return int(cursor.lastrowid)

    @staticmethod
    def status(run: sqlite3.Row) -> str:
        """A run's status as it stands: `abandoned` for a run still marked `running`
        whose process has gone (killed outright, or its machine rebooted)."""
        if run["status"] != "running" or run["pid"] is None:
            return run["status"]
        if is_alive(run["pid"], run["pid_start_ticks"], run["boot_id"]):
            return "running"
        same_machine = run["boot_id"] == boot_id() or \
            json.loads(run["environment"] or "{}").get("hostname") == platform.node()
        return "abandoned" if same_machine else "running"

    def abandon_run(self, run_id: int) -> None:
        """Mark a run whose process is gone `abandoned` (leftovers.py)."""
        with self._db:
            self._db.execute("UPDATE runs SET status = 'abandoned' WHERE id = ? AND "
                             "status = 'running'", (run_id,))

    def end_run(self, run_id: int, status: str) -> None:
        with self._db:
            self._db.execute(
                "UPDATE runs SET status = ?, finished_utc = ? WHERE id = ?",
                (status, utc_now(), run_id),
            )

    def runs(self) -> list[sqlite3.Row]:
        return self._db.execute("SELECT * FROM runs ORDER BY id").fetchall()

    def run(self, run_id: int) -> sqlite3.Row:
        row = self._db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            known = ", ".join(str(r["id"]) for r in self.runs()) or "none"
            raise StoreError(f"{self.path}: no run with id {run_id} (runs: {known})")
        return row

    def latest_run_id(self) -> int:
        row = self._db.execute("SELECT max(id) FROM runs").fetchone()
        if row[0] is None:
            raise StoreError(f"{self.path}: the database holds no runs")
        return int(row[0])

    # --- calibrations (launches/calibration.py) ------------------------------

    def calibration(self, machine: str, configuration: str) -> sqlite3.Row | None:
        return self._db.execute(
            "SELECT * FROM calibrations WHERE machine = ? AND configuration = ?",
            (machine, configuration)).fetchone()

    def save_calibration(self, machine: str, configuration: str, values: dict,
                         run_id: int | None) -> None:
        """Store (or replace) the components of one configuration on one machine."""
        columns = {"machine": machine, "configuration": configuration, **values,
                   "measured_utc": utc_now(), "run_id": run_id}
        marks = ", ".join("?" for _ in columns)
        with self._db:
            self._db.execute(f"INSERT OR REPLACE INTO calibrations ({', '.join(columns)}) "
                             f"VALUES ({marks})", tuple(columns.values()))

    # --- the interoperability matrix (interop/) --------------------------------

    def add_interop_result(self, run_id: int, row: dict) -> None:
        """Store one pair (the columns of the `interop` table but run_id)."""
        self._insert("interop", {"run_id": run_id, **row,
                                 "client": json.dumps(row["client"], sort_keys=True),
                                 "server": json.dumps(row["server"], sort_keys=True)})

    def _insert(self, table: str, row: dict) -> None:
        with self._db:
            self._db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES "
                             f"({', '.join('?' for _ in row)})", tuple(row.values()))

    def interop_results(self, run_id: int) -> list[dict]:
        """The pairs of a run, in the order they ran, `client` and `server` decoded."""
        rows = self._db.execute("SELECT * FROM interop WHERE run_id = ? ORDER BY rowid",
                                (run_id,)).fetchall()
        return [{**dict(row), "client": json.loads(row["client"]),
                 "server": json.loads(row["server"])} for row in rows]

    # --- the searches of `mwbench saturate` (saturation.py) ----------------------

    def add_saturation(self, run_id: int, row: dict) -> None:
        """Store one configuration's search (the columns of `saturation` but run_id)."""
        self._insert("saturation", {"run_id": run_id, **row,
                                    "probes": json.dumps(row["probes"])})

    def saturations(self, run_id: int) -> list[dict]:
        """The searches of a run, in the order they were stored, `probes` decoded."""
        rows = self._db.execute("SELECT * FROM saturation WHERE run_id = ? ORDER BY rowid",
                                (run_id,)).fetchall()
        return [{**dict(row), "probes": json.loads(row["probes"])} for row in rows]

    # --- cells ------------------------------------------------------------

    def add_cell(self, run_id: int, cell: CellRecord) -> int:
        """Store one cell, its samples and its named series in one transaction."""
        factors = dict(cell.factors)
        factors["options"] = json.dumps(factors["options"]) if factors.get("options") else None
        factors["background"] = factors.get("background") or BACKGROUND_NONE
        stats = cell.stats or {}
        columns = {
            "run_id": run_id,
            **{name: factors.get(name) for name in FACTOR_COLUMNS},
            "client_cpu": cell.client_cpu,
            "server_cpu": cell.server_cpu,
            "idle_hold_held": cell.idle_hold_held,
            "status": cell.status,
            "error": cell.error,
            "batch_size": cell.batch_size,
            **{name: stats.get(name) for name in STAT_COLUMNS},
            "measurer_header": _json_or_none(cell.measurer_header),
            "server_header": _json_or_none(cell.server_header),
            "notes": json.dumps(cell.notes),
            "role": cell.role,
            "load_generator": _json_or_none(cell.load_generator),
            "daemon": _json_or_none(cell.daemon),
            "started_utc": cell.started_utc,
            "duration_s": cell.duration_s,
            "position": cell.position,
        }
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        with self._db:
            cursor = self._db.execute(
                f"INSERT INTO cells ({names}) VALUES ({marks})", tuple(columns.values())
            )
            cell_id = int(cursor.lastrowid)
            if cell.samples_ns is not None and cell.samples_ns.size:
                self._db.execute("INSERT INTO samples VALUES (?, ?, ?, ?)",
                                 (cell_id, *_encoded(cell.samples_ns)))
            named = cell.named_series or NamedSeries()
            self._db.executemany(
                "INSERT INTO named_series (cell_id, name, position, part_of, encoding, count,"
                " data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(cell_id, name, position, named.part_of.get(name), *_encoded(values))
                 for position, (name, values) in enumerate(named.items())])
        return cell_id

    def cells(self, run_id: int, spec_order: bool = False) -> list[dict]:
        """The cells of a run, each a dict of its columns (and the run's suite) with the
        JSON and boolean columns decoded: the one place that reads them back. In the order
        they ran, or with `spec_order` by configuration in the spec's order, then launch
        (cells stored before schema 9 ran in the spec's order)."""
        self.run(run_id)  # a clear error for an unknown run
        order = "coalesce(cells.position, -1), cells.id" if spec_order else "cells.id"
        rows = self._db.execute(
            "SELECT cells.*, runs.suite FROM cells JOIN runs ON runs.id = cells.run_id"
            f" WHERE run_id = ? ORDER BY {order}",
            (run_id,),
        ).fetchall()
        return [_decoded(row) for row in rows]

    def samples(self, cell_id: int) -> np.ndarray:
        """The raw samples of a cell as the driver wrote them (ns per batch)."""
        row = self._db.execute(
            "SELECT encoding, count, data FROM samples WHERE cell_id = ?", (cell_id,)
        ).fetchone()
        if row is None:
            return np.empty(0, dtype=np.int64)
        return self._decoded_values(row, f"cell {cell_id}: samples")

    def named_series(self, cell_id: int) -> NamedSeries:
        """The named series of a cell, in the order its result file gave them, decoded
        (int64 ns, one value per sample); empty for a cell without any."""
        rows = self._db.execute(
            "SELECT name, part_of, encoding, count, data FROM named_series WHERE cell_id = ?"
            " ORDER BY position", (cell_id,)).fetchall()
        return NamedSeries(
            {row["name"]: self._decoded_values(row, f"cell {cell_id}: series {row['name']}")
             for row in rows},
            {row["name"]: row["part_of"] for row in rows})

    def series_names(self, run_id: int) -> list[str]:
        """Every name of a named series that a cell of the run holds, in the order the cells
        ran and their files listed them (without decoding any values)."""
        rows = self._db.execute(
            "SELECT named_series.name FROM named_series JOIN cells ON cells.id = cell_id"
            " WHERE cells.run_id = ? ORDER BY cell_id, named_series.position",
            (run_id,)).fetchall()
        return list(dict.fromkeys(row["name"] for row in rows))

    def _decoded_values(self, row: sqlite3.Row, what: str) -> np.ndarray:
        """The int64 values of a `samples` or `named_series` row: the one decoder."""
        if row["encoding"] != SAMPLE_ENCODING:
            raise StoreError(f"{self.path}: {what}: unknown encoding {row['encoding']}")
        values = np.frombuffer(zlib.decompress(row["data"]), dtype="<i8").astype(np.int64)
        if values.size != row["count"]:
            raise StoreError(f"{self.path}: {what}: the count of values does not match")
        return values


# Columns stored as JSON text, and as 0/1, read back as the values they were.
JSON_COLUMNS = ("options", "notes", "measurer_header", "server_header", "load_generator",
                "daemon")
BOOLEAN_COLUMNS = (*(factor.name for factor in FACTORS if factor.boolean), "idle_hold_held")


def _decoded(row: sqlite3.Row) -> dict:
    cell = dict(zip(row.keys(), row, strict=True))
    for column in JSON_COLUMNS:
        cell[column] = json.loads(cell[column]) if cell[column] else None
    cell["notes"] = cell["notes"] or []
    for column in BOOLEAN_COLUMNS:
        cell[column] = None if cell[column] is None else bool(cell[column])
    return cell


def _encoded(values: np.ndarray) -> tuple[str, int, bytes]:
    """The encoding, count and data of int64 values as the store keeps them."""
    raw = np.ascontiguousarray(values, dtype="<i8").tobytes()
    return SAMPLE_ENCODING, int(values.size), zlib.compress(raw, 6)


def _json_or_none(value: dict | list | None) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)
