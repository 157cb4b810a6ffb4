"""`mwbench export`: the schema of the JSON and CSV records, the verb's help and errors.

The per-sample formats have their own files: test_export_hdr*.py and
test_export_samples.py.
"""

import csv
import io
import json
import subprocess

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import mwbench_exe
from export_checks import latency_samples, make_store
from mwbench.cli import main
from mwbench.export import FORMATS
from mwbench.store import CellRecord, Store

CONTRACT_KEYS = {
    "run_id", "suite", "experiment", "driver", "transport", "mode", "placement", "idle_hold",
    "operation", "payload_bytes", "servants", "threads", "launch", "samples", "min_us",
    "p25_us", "p50_us", "p75_us", "p90_us", "p99_us", "p999_us", "max_us", "mean_us", "std_us",
    "throughput_per_s", "status", "error",
}


def make_db(path):
    store = Store.create_or_open(path)
    run_id = store.begin_run("quick", "s.yaml", "suite: quick", {}, "0.1.0")
    factors = dict(experiment="ping", driver="rawtcp", transport="tcp", mode="remote",
                   operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
                   priority=0, servants=None, threads=None, options=None, launch=1)
    stats = {key: 1.5 for key in CONTRACT_KEYS if key.endswith("_us")}
    stats.update(samples=3, throughput_per_s=2e5)
    store.add_cell(run_id, CellRecord(factors=factors, status="ok", stats=stats,
                                      samples_ns=np.array([1, 2, 3]),
                                      measurer_header={"middleware": "Linux sockets"}))
    store.add_cell(run_id, CellRecord(factors={**factors, "driver": "omniorb"},
                                      status="failed", error="server exited with status 3"))
    store.end_run(run_id, "finished")
    store.close()
    return run_id


def test_json_has_every_contract_key_and_nulls_for_unused_factors(tmp_path):
    db = tmp_path / "m.db"
    run_id = make_db(db)
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["context"]["runs"][0]["run_id"] == run_id
    records = document["cells"]
    assert len(records) == 2
    for record in records:
        assert CONTRACT_KEYS <= record.keys()
        assert record["run_id"] == run_id and record["suite"] == "quick"
        assert record["servants"] is None and record["threads"] is None
        assert record["idle_hold"] is True
    ok, failed = records
    assert ok["status"] == "ok" and ok["error"] is None and ok["samples"] == 3
    assert ok["middleware"] == "Linux sockets"
    assert failed["status"] == "failed" and failed["p50_us"] is None
    assert failed["error"] == "server exited with status 3"


def test_csv_has_the_same_records(tmp_path):
    db = tmp_path / "m.db"
    make_db(db)
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [row["driver"] for row in rows] == ["rawtcp", "omniorb"]
    assert CONTRACT_KEYS <= rows[0].keys()


def test_missing_database_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["export", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2
    assert "none.db: no such database" in result.output


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_unknown_run_is_exit_2_and_writes_nothing(tmp_path, fmt):
    db, out = tmp_path / "m.db", tmp_path / "export.out"
    make_store(db, [({}, latency_samples(10), 1)])
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--run", "9", "--format", fmt,
                                       "-o", str(out)])
    assert result.exit_code == 2
    assert "no run with id 9 (runs: 1)" in result.output
    assert not out.exists()


def test_cell_records_is_importable_where_it_always_was():
    # benchmarks/baseline_table.py and the report import it from here.
    from mwbench.export import EXPORT_KEYS, cell_records

    assert callable(cell_records) and CONTRACT_KEYS <= set(EXPORT_KEYS)


def test_help_names_every_format_with_an_example():
    result = CliRunner().invoke(main, ["export", "--help"])
    assert result.exit_code == 0
    assert "[json|csv|configurations|configurations-csv|hdr|samples|context]" in result.output
    for fmt in ("json", "csv", "configurations", "configurations-csv", "hdr", "samples",
                "context"):
        assert f"--format {fmt}" in result.output
    assert "HistogramLogProcessor" in result.output and "-outputValueUnitRatio" in result.output


def test_configurations_carry_their_launches_figures_intervals_and_ratio_to_raw(tmp_path):
    db = tmp_path / "m.db"
    store = Store.create_or_open(db)
    run_id = store.begin_run("quick", "s.yaml", "suite: quick", {}, "0.1.0")
    rng = np.random.default_rng(1)
    base = dict(experiment="ping", transport="tcp", mode="remote", operation="roundtrip",
                payload_bytes=0, placement="same-cpu", idle_hold=True, priority=0)
    for launch in range(1, 6):
        level = float(np.exp(rng.normal(0, 0.1)))  # a level both launches of a block share
        for driver, median in (("rawtcp", 10_000), ("omniorb", 12_000)):
            samples = rng.lognormal(np.log(median * level), 0.1, 500).astype(np.int64)
            store.add_cell(run_id, CellRecord(
                factors={**base, "driver": driver, "launch": launch}, status="ok",
                batch_size=1, samples_ns=samples))
    store.add_cell(run_id, CellRecord(factors={**base, "driver": "zmq", "launch": 1},
                                      status="ok", batch_size=1,
                                      samples_ns=np.full(100, 50_000, dtype=np.int64)))
    store.close()
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format",
                                       "configurations"])
    assert result.exit_code == 0, result.output
    raw, orb, zmq = json.loads(result.output)["configurations"]
    assert raw["driver"] == "rawtcp" and raw["launches"] == 5 and raw["raw_ratio_p50"] is None
    assert raw["raw_ratio_note"] == "the raw socket itself" and orb["raw_ratio_note"] is None
    assert raw["p50_us_low"] < raw["p50_us"] < raw["p50_us_high"]
    # Paired launch by launch, the shared level cancels: 1.2 with a narrow interval.
    assert orb["raw_ratio_p50_low"] < 1.2 < orb["raw_ratio_p50_high"]
    assert orb["raw_ratio_p50_high"] - orb["raw_ratio_p50_low"] < 0.1
    assert orb["indistinguishable_from_raw"] is False and orb["interval_note"] is None
    assert zmq["interval_note"] == "1 launch: no interval" and zmq["p50_us_low"] is None
    assert zmq["raw_ratio_p50"] == pytest.approx(5.0, rel=0.1)  # launch 1 against launch 1
    csv_out = CliRunner().invoke(main, ["export", "--db", str(db), "--format",
                                        "configurations-csv"]).output
    assert csv_out.splitlines()[0].startswith("run_id,suite,experiment,driver")
    assert len(csv_out.splitlines()) == 4


def test_a_reader_that_stops_early_is_no_error(tmp_path):
    # `mwbench export --format samples | head`: the closed pipe ends the export quietly.
    db = tmp_path / "m.db"
    store = Store.create_or_open(db)
    run_id = store.begin_run("quick", "s.yaml", "suite: quick", {}, "0.1.0")
    factors = dict(experiment="ping", driver="rawtcp", operation="roundtrip", launch=1)
    store.add_cell(run_id, CellRecord(factors=factors, status="ok", batch_size=1,
                                      samples_ns=np.arange(200_000)))
    store.close()
    export = subprocess.Popen([mwbench_exe(), "export", "--db", str(db), "--format", "samples"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert export.stdout.readline().startswith("run_id,cell_id,")
    export.stdout.close()
    stderr = export.stderr.read()
    assert export.wait(timeout=60) == 1
    assert "Traceback" not in stderr, stderr


def test_the_context_block_says_what_measured_the_records(tmp_path):
    db = tmp_path / "m.db"
    store = Store.create_or_open(db)
    environment = {"machine": {"cpu_model": "Known CPU", "cpu_count": 2},
                   "git": {"commit": "abc123", "dirty": False}}
    spec_text = "suite: known\ndefaults: {placement: cross-cpu, idle_hold: false}\n"
    run_id = store.begin_run("known", "known.yaml", spec_text, environment, "0.1.0")
    store.end_run(run_id, "finished")
    store.close()
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "context"])
    assert result.exit_code == 0, result.output
    context = json.loads(result.output)
    assert context["mwbench_version"] and context["exported_utc"]
    (run,) = context["runs"]
    assert run["machine"]["cpu_model"] == "Known CPU" and run["git"]["commit"] == "abc123"
    assert run["spec"] == spec_text and run["suite"] == "known"
    assert run["defaults"]["placement"] == ["cross-cpu"]
    assert run["defaults"]["idle_hold"] == [False] and run["defaults"]["priority"] == [0]


def test_csv_writes_booleans_as_true_false_and_numbers_without_float_noise():
    from mwbench.export.csv_summary import csv_value

    assert [csv_value(v) for v in (True, False, None, 0.1 + 0.2, 12.0, 7, 1 / 3)] == [
        "true", "false", "", "0.3", "12", 7, "0.333333333333333"]


def test_a_configuration_without_a_raw_socket_says_why():
    from mwbench.export.configurations import no_ratio_note

    remote = dict(driver="omniorb", mode="remote", transport="tcp", operation="roundtrip")
    assert "no raw-socket (rawtcp) configuration" in no_ratio_note(remote, True)
    assert no_ratio_note({**remote, "mode": "collocated"}, True).startswith("collocated")
    assert "no raw-socket counterpart" in no_ratio_note({**remote, "transport": "inproc"}, True)
    assert no_ratio_note(remote, False) == "no launch succeeded"
