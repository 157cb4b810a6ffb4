"""The SQLite store: cells and raw samples round-trip, bad databases are refused."""

import sqlite3

import numpy as np
import pytest

from conftest import version_1_database
from mwbench.store import SCHEMA_VERSION, CellRecord, Store, StoreError


def factors(**overrides):
    base = dict(experiment="e", driver="rawtcp", transport="tcp", mode="remote",
                operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
                priority=0, servants=None, threads=None, options=None, repetition=1)
    return {**base, **overrides}


def test_cells_and_samples_round_trip(tmp_path):
    store = Store.create_or_open(tmp_path / "r" / "m.db")
    run_id = store.begin_run("quick", "spec.yaml", "suite: quick\n", {"k": 1}, "0.1.0")
    samples = np.array([4500, 4400, 2**40], dtype=np.int64)
    cell_id = store.add_cell(run_id, CellRecord(
        factors=factors(options={"threading": "pool"}), status="ok", batch_size=1,
        stats={"samples": 3, "p50_us": 4.5}, samples_ns=samples, idle_hold_held=True,
        measurer_header={"driver": "rawtcp"}))
    store.add_cell(run_id, CellRecord(factors=factors(driver="omniorb"), status="failed",
                                      error="server crashed"))
    store.end_run(run_id, "finished")
    store.close()

    store = Store.open_existing(tmp_path / "r" / "m.db")
    rows = store.cells(run_id)
    assert [r["status"] for r in rows] == ["ok", "failed"]
    assert rows[0]["options"] == {"threading": "pool"}
    assert rows[0]["p50_us"] == 4.5 and rows[0]["suite"] == "quick"
    assert rows[1]["error"] == "server crashed"
    assert store.samples(cell_id).tolist() == samples.tolist()
    assert store.samples(rows[1]["id"]).size == 0
    assert store.run(run_id)["status"] == "finished"


def test_each_cell_is_committed_at_once(tmp_path):
    path = tmp_path / "m.db"
    store = Store.create_or_open(path)
    run_id = store.begin_run("s", "p", "t", {}, "v")
    store.add_cell(run_id, CellRecord(factors=factors(), status="ok"))
    # Another connection sees the cell while the run is still open (as after a crash).
    other = sqlite3.connect(path)
    assert other.execute("SELECT count(*) FROM cells").fetchone()[0] == 1


def test_missing_database_is_named(tmp_path):
    with pytest.raises(StoreError, match="absent.db: no such database"):
        Store.open_existing(tmp_path / "absent.db")


def test_unknown_run_lists_the_known_runs(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    store.begin_run("s", "p", "t", {}, "v")
    with pytest.raises(StoreError, match=r"no run with id 7 \(runs: 1\)"):
        store.cells(7)


def test_other_schema_version_is_refused(tmp_path):
    path = tmp_path / "m.db"
    Store.create_or_open(path).close()
    connection = sqlite3.connect(path)
    connection.execute("UPDATE schema_info SET version = ?", (SCHEMA_VERSION + 1,))
    connection.commit()
    with pytest.raises(StoreError, match="schema version"):
        Store.open_existing(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("not sqlite at all, just text " * 100)
    with pytest.raises(StoreError, match="not an mwbench database"):
        Store.open_existing(path)


def columns(connection, table):
    return [(row[1], row[2], row[3], row[4]) for row in
            connection.execute(f"PRAGMA table_info({table})")]


def test_a_version_1_database_is_migrated_when_opened(tmp_path):
    path = tmp_path / "old.db"
    version_1_database(path)
    store = Store.open_existing(path)
    (old,) = store.cells(1)
    assert old["background"] == "none"  # it ran without background load
    assert old["role"] is None and old["load_generator"] is None and old["p50_us"] == 14.5
    store.add_cell(1, CellRecord(factors=factors(background="cpu:2"), status="ok",
                                 role="simple", load_generator={"argv": ["stress-ng"]}))
    store.close()
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT version FROM schema_info").fetchone() == (SCHEMA_VERSION,)
    assert connection.execute("SELECT background, role FROM cells ORDER BY id").fetchall() == [
        ("none", None), ("cpu:2", "simple")]


def test_a_migrated_database_has_the_columns_of_a_fresh_one(tmp_path):
    version_1_database(tmp_path / "old.db")
    Store.open_existing(tmp_path / "old.db").close()
    Store.create_or_open(tmp_path / "new.db").close()
    old, new = sqlite3.connect(tmp_path / "old.db"), sqlite3.connect(tmp_path / "new.db")
    for table in ("runs", "cells", "samples", "schema_info"):
        assert columns(old, table) == columns(new, table)


def test_a_failed_migration_leaves_the_database_at_its_version(tmp_path, monkeypatch):
    from mwbench import store_schema

    path = tmp_path / "old.db"
    version_1_database(path)
    broken = (*store_schema.MIGRATIONS[1], "ALTER TABLE nowhere ADD COLUMN x")
    monkeypatch.setitem(store_schema.MIGRATIONS, 1, broken)
    with pytest.raises(StoreError, match=f"cannot migrate schema version 1 to {SCHEMA_VERSION}"):
        Store.open_existing(path)
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT version FROM schema_info").fetchone() == (1,)
    assert "background" not in [c[0] for c in columns(connection, "cells")]


def test_cells_without_a_background_are_stored_as_none(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    run_id = store.begin_run("s", "p", "t", {}, "v")
    without = {k: v for k, v in factors().items() if k != "background"}
    store.add_cell(run_id, CellRecord(factors=without, status="ok"))
    assert store.cells(run_id)[0]["background"] == "none"
