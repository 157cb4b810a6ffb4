"""`mwbench export --format samples`: one CSV row per raw sample, with its cell.

Other tools re-plot from this file, so its schema is pinned: the columns, one
row per stored sample in order, each row's factors, and per_call_ns equal to
value_ns / batch_size exactly once parsed. Failed cells give no rows, and are
said; streaming in chunks must not change a byte.
"""

import csv
import io
import json

import numpy as np
from click.testing import CliRunner

from export_checks import FACTORS, latency_samples, make_store
from mwbench.cli import main
from mwbench.export import samples_csv
from mwbench.store import FACTOR_COLUMNS, Store

COLUMNS = ["run_id", "cell_id", *FACTOR_COLUMNS, "batch_size", "sample_index", "value_ns",
           "per_call_ns"]
OPTIONS = {"fault": "exit", "note": 'a "quoted", value'}


def export_samples(db, *extra):
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "samples", *extra])
    assert result.exit_code == 0, result.output
    return result


def test_one_row_per_sample_with_its_cells_factors(tmp_path):
    db = tmp_path / "m.db"
    remote, batched = latency_samples(1000), latency_samples(700, seed=2, scale_ns=3_100)
    run_id = make_store(db, [
        ({}, remote, 1),
        ({"mode": "collocated", "transport": "inproc", "driver": "omniorb", "options": OPTIONS,
          "threads": 2}, batched, 64),
    ])
    result = export_samples(db)
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == COLUMNS
    assert len(rows) == remote.size + batched.size
    for cell_id, samples, batch_size, factors in (
            (1, remote, 1, FACTORS),
            (2, batched, 64, {**FACTORS, "mode": "collocated", "transport": "inproc",
                              "driver": "omniorb", "options": OPTIONS, "threads": 2})):
        mine = [row for row in rows if row["cell_id"] == str(cell_id)]
        assert len(mine) == samples.size
        assert [int(row["sample_index"]) for row in mine] == list(range(samples.size))
        assert [int(row["value_ns"]) for row in mine] == samples.tolist()
        assert all(float(row["per_call_ns"]) == int(row["value_ns"]) / batch_size
                   for row in mine)
        first = mine[0]
        assert first["run_id"] == str(run_id) and first["batch_size"] == str(batch_size)
        assert first["experiment"] == factors["experiment"]
        assert first["mode"] == factors["mode"] and first["driver"] == factors["driver"]
        assert first["payload_bytes"] == "0" and first["idle_hold"] == "true"
        assert first["servants"] == ""  # a factor the cell does not use
        assert first["threads"] == ("2" if factors["threads"] else "")
        assert (json.loads(first["options"]) if first["options"] else None) == factors["options"]


def test_values_are_the_stored_samples(tmp_path):
    db = tmp_path / "m.db"
    make_store(db, [({}, latency_samples(300), 1), ({}, latency_samples(200, seed=5), 8)])
    out = tmp_path / "samples.csv"
    export_samples(db, "-o", str(out))
    table = np.genfromtxt(out, delimiter=",", names=True, dtype=None, encoding="utf-8")
    store = Store.open_existing(db)
    stored = np.concatenate([store.samples(1), store.samples(2)])
    store.close()
    assert np.array_equal(table["value_ns"], stored)
    assert np.array_equal(table["per_call_ns"], stored / table["batch_size"])


def test_failed_cells_give_no_rows_and_are_said(tmp_path):
    db = tmp_path / "m.db"
    make_store(db, [({"driver": "omniorb"}, None, None), ({}, latency_samples(10), 1)])
    result = export_samples(db)
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 10 and {row["cell_id"] for row in rows} == {"2"}
    assert "skipped 1 failed cell(s), no rows: cell 1" in result.stderr


def written_whole_and_in_chunks(store, monkeypatch, chunk: int) -> io.StringIO:
    """The samples of run 1 written at once, after checking that in chunks of `chunk` cells
    they are the same bytes; the store is closed."""
    whole, chunked = io.StringIO(), io.StringIO()
    samples_csv.write(store, [1], whole)
    monkeypatch.setattr(samples_csv, "CHUNK", chunk)
    samples_csv.write(store, [1], chunked)
    store.close()
    assert chunked.getvalue() == whole.getvalue()
    return whole


def test_chunked_streaming_writes_the_same_bytes(tmp_path, monkeypatch):
    db = tmp_path / "m.db"
    make_store(db, [({}, latency_samples(1000), 1), ({}, latency_samples(999, seed=4), 3)])
    store = Store.open_existing(db)
    whole = written_whole_and_in_chunks(store, monkeypatch, 7)
    assert whole.getvalue().count("\n") == 1 + 1000 + 999


def test_named_series_are_one_column_each_empty_where_a_cell_has_none(tmp_path, monkeypatch):
    from mwbench.named_series import NamedSeries
    from mwbench.store import CellRecord

    db = tmp_path / "m.db"
    make_store(db, [({}, latency_samples(5), 1)])  # a cell without named series
    store = Store.open_existing(db)
    phases = NamedSeries({"total": np.arange(10, 15), "library_load": np.arange(5)},
                         {"library_load": "total"})
    store.add_cell(1, CellRecord(factors={**FACTORS, "assembly": "static"}, status="ok",
                                 samples_ns=np.arange(100, 105), batch_size=1,
                                 named_series=phases))
    whole = written_whole_and_in_chunks(store, monkeypatch, 2)
    rows = list(csv.DictReader(io.StringIO(whole.getvalue())))
    assert list(rows[0]) == [*COLUMNS, "series_total_ns", "series_library_load_ns"]
    assert [(row["series_total_ns"], row["series_library_load_ns"]) for row in rows[:5]] == \
        [("", "")] * 5
    assert [(row["value_ns"], row["series_total_ns"], row["series_library_load_ns"])
            for row in rows[5:]] == [(str(100 + i), str(10 + i), str(i)) for i in range(5)]
    assert rows[5]["assembly"] == "static" and rows[0]["assembly"] == ""
