"""The report's phases section, from stored runs of known named series.

Each run is stored directly (conftest.store_cells), so every number of the
table, the stacks and the footprint is known on paper; the end-to-end run
through the stand-in driver is test_phases_integration.py.
"""

import numpy as np

from conftest import store_cells
from mwbench.named_series import NamedSeries
from mwbench.report import build_report
from mwbench.report.data import load_run
from mwbench.report.phases import _number, section
from mwbench.store import Store

MS = 1_000_000


def phases(scale: int, overlap: bool = False) -> NamedSeries:
    """Three samples of a plan: parts listed before their whole, as a driver may."""
    parsing = np.array([1, 2, 3]) * 100_000 * scale  # 0.1, 0.2, 0.3 ms
    creation = np.array([4, 4, 4]) * 100_000 * scale
    loading = np.array([1, 1, 1]) * 100_000 * scale
    total = parsing + creation + (0 if overlap else 100_000 * scale) - (
        200_000 * scale if overlap else 0)
    return NamedSeries({"plan_parsing": parsing, "home_creation": creation,
                        "library_load": loading, "total": total,
                        "teardown": np.array([5, 6, 7]) * 1_000},
                       {"plan_parsing": "total", "home_creation": "total",
                        "library_load": "home_creation"})


def header(assembly: str, footprint) -> dict:
    return {"middleware_config": {"assembly": assembly, "plan": "/build/plans/basic_sp.cdp",
                                  "footprint": footprint}}


FOOTPRINT = {"processes": [{"role": "component server", "program": "mwccm-component-server",
                            "size_bytes": 1 << 20, "disk_bytes": 3 << 20, "peak_rss_kb": 2048},
                           {"role": "node", "peak_rss_kb": -1}],
             "size_bytes": 2 << 20, "disk_bytes": 4 << 20, "peak_rss_kb": 4096}


def stored(tmp_path, cells) -> tuple[Store, int]:
    db = tmp_path / "m.db"
    run_id = store_cells(db, cells)
    return Store.open_existing(db), run_id


def deploy_cells(overlap: bool = False) -> list[dict]:
    samples = [3 * MS, 3 * MS, 3 * MS]
    return [
        {"experiment": "deploy", "mode": "collocated", "transport": "inproc",
         "operation": "assembly", "driver": "deploy", "assembly": "static",
         "samples_ns": samples, "named_series": phases(1, overlap),
         "measurer_header": header("static", FOOTPRINT), "launch": launch}
        for launch in (1, 2)
    ] + [
        {"experiment": "deploy", "mode": "collocated", "transport": "inproc",
         "operation": "assembly", "driver": "deploy", "assembly": "dynamic",
         "samples_ns": samples, "named_series": phases(10),
         "measurer_header": header("dynamic", "not a footprint")},
    ]


def test_rows_are_the_series_under_their_wholes_with_pooled_min_max_and_mean(tmp_path):
    store, run_id = stored(tmp_path, deploy_cells())
    (experiment,) = load_run(store, run_id).experiments
    found = section("a", experiment)
    assert [(t["label"], t["samples"], t["launches"], t["unit"]) for t in found["tables"]] == [
        ("static assembly", 6, 2, "µs"), ("dynamic assembly", 3, 1, "ms")]
    # The plan by its name; the assembly is in the label already.
    assert [t["recorded"] for t in found["tables"]] == ["plan basic_sp"] * 2
    static, dynamic = found["tables"]
    assert [(r["name"], r["depth"]) for r in static["rows"]] == [
        ("total", 0), ("plan_parsing", 1), ("home_creation", 1), ("library_load", 2),
        ("teardown", 0)]
    # One unit per table, its largest value's: static plan parsing 100-300 µs twice (its
    # total under a millisecond); dynamic 1-3 ms, and its teardown of 5-7 µs in ms.
    assert {k: static["rows"][1][k] for k in ("min", "max", "mean")} == {
        "min": "100", "max": "300", "mean": "200"}
    assert {k: dynamic["rows"][1][k] for k in ("min", "max", "mean")} == {
        "min": "1.00", "max": "3.00", "mean": "2.00"}
    assert {k: dynamic["rows"][4][k] for k in ("min", "max", "mean")} == {
        "min": "0.00500", "max": "0.00700", "mean": "0.00600"}


def test_the_stack_of_a_whole_is_its_direct_parts_and_the_rest(tmp_path):
    store, run_id = stored(tmp_path, deploy_cells())
    found = section("a", load_run(store, run_id).experiments[0])
    (stack,) = found["stacks"]  # teardown has no parts: the table only
    assert stack["whole"] == "total" and stack["parts"] == ["plan_parsing", "home_creation"]
    static, dynamic = stack["bars"]
    # Direct parts only: library_load is inside home_creation's bar.
    assert static == {"label": "static assembly", "whole": 700_000.0, "other": 100_000.0,
                      "means": {"plan_parsing": 200_000.0, "home_creation": 400_000.0}}
    assert dynamic["other"] == 1_000_000.0
    (figure,) = found["figures"]
    assert figure["id"] == "a-phases-total" and "<svg" in figure["svg"]
    assert figure["shows"] and figure["limits"]
    assert found["notes"] == []


def test_parts_that_exceed_their_whole_draw_no_other_and_say_so(tmp_path):
    store, run_id = stored(tmp_path, deploy_cells(overlap=True))
    found = section("a", load_run(store, run_id).experiments[0])
    (note,) = found["notes"]
    # static, overlapping: parts 0.6 ms on average, total 0.4 ms.
    assert note.startswith("static assembly: the parts of total add up to 600 µs on average, "
                           "50% more than total itself (400 µs)")


def test_the_footprint_is_read_defensively(tmp_path):
    store, run_id = stored(tmp_path, deploy_cells())
    found = section("a", load_run(store, run_id).experiments[0])
    assert [(r["configuration"], r["process"], r["size"], r["disk"], r["resident"], r["cells"])
            for r in found["footprint"]] == [
        ("static assembly", "component server (mwccm-component-server)", "1.0 MiB", "3.0 MiB",
         "2.0 MiB", 2),
        ("static assembly", "node", "–", "–", "–", 2),  # no program, RSS unknown (-1)
        ("static assembly", "all processes", "2.0 MiB", "4.0 MiB", "4.0 MiB", 2)]


def test_an_experiment_without_named_series_has_no_section(tmp_path):
    store, run_id = stored(tmp_path, [{"samples_ns": [1000, 2000]}])
    assert section("a", load_run(store, run_id).experiments[0]) is None
    html = build_report(store, [run_id])
    assert "Phases of a sample" not in html


def test_the_report_places_the_section_in_its_experiment(tmp_path):
    store, run_id = stored(tmp_path, [*deploy_cells(), {"experiment": "ping",
                                                         "samples_ns": [1000, 2000]}])
    html = build_report(store, [run_id])
    deploy = html.index(f'id="run{run_id}-deploy"')
    ping = html.index(f'id="run{run_id}-ping"')
    assert deploy < html.index(f'id="run{run_id}-deploy-phases"') < ping
    assert html.count("<strong>What it shows:</strong>") == html.count("<figure")


def test_numbers_have_three_significant_figures_and_no_exponent():
    assert [_number(v) for v in (0, 0.000123, 0.5, 1.234, 12.34, 123.4, 1234.5, 12345.6)] == [
        "0", "0.000123", "0.500", "1.23", "12.3", "123", "1,234", "12,346"]
