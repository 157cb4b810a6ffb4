"""The SQLite store: cells and raw samples round-trip, bad databases are refused."""

import sqlite3

import numpy as np
import pytest

from conftest import version_1_database
from mwbench.named_series import NamedSeries
from mwbench.store import SCHEMA_VERSION, CellRecord, Store, StoreError


def factors(**overrides):
    base = dict(experiment="e", driver="rawtcp", transport="tcp", mode="remote",
                operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
                priority=0, servants=None, threads=None, options=None, launch=1)
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


def schema(connection):
    """Every table and index, as SQLite keeps its definition."""
    return connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                              "ORDER BY type, name").fetchall()


def test_a_migrated_database_has_the_columns_of_a_fresh_one(tmp_path):
    version_1_database(tmp_path / "old.db")
    Store.open_existing(tmp_path / "old.db").close()
    Store.create_or_open(tmp_path / "new.db").close()
    old, new = sqlite3.connect(tmp_path / "old.db"), sqlite3.connect(tmp_path / "new.db")
    for table in ("runs", "cells", "samples", "named_series", "schema_info"):
        assert columns(old, table) == columns(new, table)
    assert schema(old) == schema(new)
    assert "assembly" in [column[0] for column in columns(new, "cells")]


# What each version added (store_schema.py): its tables, the columns of cells and of runs.
ADDED = {6: (["named_series"], ["assembly"], []),
         7: ([], ["delivery", "layer"], []),
         8: ([], ["hosts"], ["hosts"]),
         9: (["calibrations"], ["position"], ["seed", "launch_plan"]),  # and launch renamed
         10: ([], ["orb"], []),
         11: (["interop"], [], []),
         12: (["saturation"], ["invocation", "dispatch", "load"], []),
         13: ([], [], [])}  # and the saturation table's bound_us renamed, percentile added


def database_at(path, version: int) -> sqlite3.Connection:
    """A database as mwbench at schema `version` made it, in a transaction the caller
    commits: a fresh one, less what every later version added."""
    from mwbench import store_schema

    assert max(ADDED) == SCHEMA_VERSION, "add the new version's tables and columns to ADDED"
    connection = sqlite3.connect(path)
    connection.execute("BEGIN IMMEDIATE")
    store_schema.create(connection)
    for later in range(SCHEMA_VERSION, version, -1):
        tables, cell_columns, run_columns = ADDED[later]
        for table in tables:
            connection.execute(f"DROP TABLE {table}")
        for table, columns in (("cells", cell_columns), ("runs", run_columns)):
            for column in columns:
                connection.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        if later == 9:
            connection.execute("ALTER TABLE cells RENAME COLUMN launch TO repetition")
        if later == 13:
            connection.execute("ALTER TABLE saturation DROP COLUMN percentile")
            connection.execute("ALTER TABLE saturation RENAME COLUMN bound_us TO p99_bound_us")
    connection.execute("UPDATE schema_info SET version = ?", (version,))
    return connection


def one_old_cell(tmp_path, version: int, *more: str) -> tuple:
    """A database of schema `version` holding run 1 with one cell of rawtcp (and what the
    statements `more` add), opened (so migrated): its path, the store and the cell as it
    reads now."""
    path = tmp_path / f"v{version}.db"
    connection = database_at(path, version)
    connection.execute("INSERT INTO runs (suite, spec_path, spec_text, environment, "
                       "mwbench_version, started_utc, status) VALUES ('s', 'p', 't', '{}', "
                       "'0.1.0', 'now', 'finished')")
    launch = "launch" if version >= 9 else "repetition"  # version 9 renamed it
    connection.execute(f"INSERT INTO cells (run_id, experiment, driver, operation, {launch}, "
                       "status, started_utc, duration_s) VALUES (1, 'e', 'rawtcp', "
                       "'roundtrip', 1, 'ok', 'now', 1.0)")
    for statement in more:
        connection.execute(statement)
    connection.commit()
    connection.close()
    store = Store.open_existing(path)
    (old,) = store.cells(1)
    return path, store, old


def test_a_version_5_database_gains_named_series_and_the_newer_factors(tmp_path):
    path, store, old = one_old_cell(tmp_path, 5)
    assert old["assembly"] is None  # no cell before version 6 set it
    assert old["delivery"] is None and old["layer"] is None  # nor before version 7
    assert old["hosts"] is None  # nor before version 8: every process on the run's machine
    assert old["launch"] == 1  # version 9: a cell stored before is one launch
    assert old["orb"] is None  # no cell before version 10 named its ORB
    assert store.run(1)["seed"] is None  # its order was the spec's
    assert len(store.named_series(old["id"])) == 0
    store.close()
    Store.create_or_open(tmp_path / "fresh.db").close()
    assert schema(sqlite3.connect(path)) == schema(sqlite3.connect(tmp_path / "fresh.db"))


def test_a_version_10_database_gains_the_interop_table(tmp_path):
    path = tmp_path / "v10.db"
    connection = database_at(path, 10)
    connection.commit()
    connection.close()
    store = Store.open_existing(path)
    run_id = store.begin_run("interop", "mwbench interop", "t", {}, "v")
    assert store.interop_results(run_id) == []
    row = {"kind": "component", "operation": "octets_inout", "payload_bytes": 1024,
           "client_orb": "omniorb", "server_orb": "jacorb", "status": "fail",
           "reason": "marshal", "line": "CORBA::MARSHAL", "error": "client exited",
           "p50_us": None, "p99_us": None, "samples": None,
           "client": {"driver": "ccm", "options": {"scenario": "obj-comp"}},
           "server": {"driver": "java", "options": {"orb": "jacorb"}}, "duration_s": 1.5}
    store.add_interop_result(run_id, row)
    store.close()
    (back,) = Store.open_existing(path).interop_results(run_id)
    assert {key: back[key] for key in row} == row and back["run_id"] == run_id
    Store.create_or_open(tmp_path / "fresh.db").close()
    assert schema(sqlite3.connect(path)) == schema(sqlite3.connect(tmp_path / "fresh.db"))


def test_a_version_11_database_gains_the_three_factors_and_the_saturation_table(tmp_path):
    path, store, old = one_old_cell(tmp_path, 11)
    # A cell stored before: a closed loop, static invocation and dispatch, none of them set.
    assert (old["invocation"], old["dispatch"], old["load"]) == (None, None, None)
    assert store.saturations(1) == []
    store.add_saturation(1, {"configuration": "{}", "kind": "poisson", "bound_us": 50.0,
                             "percentile": 90.0, "max_rate_per_s": None, "reason": "none",
                             "probes": [{"r": 1}]})
    assert store.saturations(1)[0]["probes"] == [{"r": 1}]
    store.close()
    Store.create_or_open(tmp_path / "fresh.db").close()
    assert schema(sqlite3.connect(path)) == schema(sqlite3.connect(tmp_path / "fresh.db"))


def test_a_version_12_search_reads_as_a_bound_at_p99(tmp_path):
    path, store, _ = one_old_cell(
        tmp_path, 12, "INSERT INTO saturation (run_id, configuration, kind, p99_bound_us, "
        "max_rate_per_s, reason, probes) VALUES (1, '{}', 'poisson', 200.0, 4000.0, 'r', "
        "'[{\"rate_per_s\": 4000.0, \"p99_us\": 150.0}]')")
    (search,) = store.saturations(1)
    store.close()
    assert (search["bound_us"], search["percentile"]) == (200.0, 99.0)
    assert "p99_bound_us" not in search and search["probes"][0]["p99_us"] == 150.0
    Store.create_or_open(tmp_path / "fresh.db").close()
    assert schema(sqlite3.connect(path)) == schema(sqlite3.connect(tmp_path / "fresh.db"))


def test_named_series_round_trip_in_order_with_their_wholes(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    run_id = store.begin_run("s", "p", "t", {}, "v")
    named = NamedSeries(
        {"total": np.array([900, 950], dtype=np.int64),
         "home_creation": np.array([300, 2**40], dtype=np.int64),
         "library_load": np.array([0, 7], dtype=np.int64),
         "teardown": np.array([100, 110], dtype=np.int64)},
        {"home_creation": "total", "library_load": "home_creation"})
    with_series = store.add_cell(run_id, CellRecord(
        factors=factors(assembly="static"), status="ok", batch_size=1,
        samples_ns=np.array([1000, 1060], dtype=np.int64), named_series=named))
    without = store.add_cell(run_id, CellRecord(factors=factors(), status="ok"))
    store.close()

    store = Store.open_existing(tmp_path / "m.db")
    back = store.named_series(with_series)
    assert list(back) == ["total", "home_creation", "library_load", "teardown"]
    assert {name: values.tolist() for name, values in back.items()} == {
        name: values.tolist() for name, values in named.items()}
    assert all(values.dtype == np.int64 for values in back.values())
    assert back.part_of == named.part_of
    assert len(store.named_series(without)) == 0
    assert store.series_names(run_id) == ["total", "home_creation", "library_load", "teardown"]
    assert [cell["assembly"] for cell in store.cells(run_id)] == ["static", None]
    assert store.samples(with_series).tolist() == [1000, 1060]


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


def test_a_cell_whose_named_series_cannot_be_written_is_not_stored_at_all(tmp_path):
    store = Store.create_or_open(tmp_path / "m.db")
    run_id = store.begin_run("s", "p", "t", {}, "v")
    broken = NamedSeries({"total": np.array([1, 2]), "part": "not values"})
    with pytest.raises(ValueError):
        store.add_cell(run_id, CellRecord(factors=factors(), status="ok",
                                          samples_ns=np.array([3, 4]), named_series=broken))
    assert store.cells(run_id) == []  # the cell and its samples went with the transaction
    assert sqlite3.connect(tmp_path / "m.db").execute(
        "SELECT count(*) FROM samples").fetchone() == (0,)
