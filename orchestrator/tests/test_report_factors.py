"""The report's single-factor sections on a known run: fits, verdicts, marks and errors.

The run is made of stored cells whose samples are chosen so that every
number the sections print can be worked out by hand (times in µs):

    simple          median 20
    marshalling     octets: 20 + 0.05 per KiB; records: 20 + 0.5 per KiB   (0 to 16 KiB)
    dispatcher      target=random: median 20, 22, 26, 34 at 1, 10, 100, 1000 servants,
                    minimum 15 throughout; target=same: median 20 throughout
    parallelism     threads 1, 2, 4: median 20, 38, 76, two series per cell
    background      none, cpu:1, cpu:2: median 20, 24, 40
    mixture         (4096 B, 100 servants, 2 threads) measured 47; (0 B, 10, 1) measured 20
"""

import html as markup
import re

import numpy as np
import pytest

from conftest import store_cells
from mwbench.report import build_report
from mwbench.report.factors.dispatcher import interpret
from mwbench.store import Store

ENVIRONMENT = {"machine": {"cpu_count": 2}}


def around(median_us: float, low_us: float | None = None, high_us: float | None = None,
           count: int = 9) -> list[int]:
    """Samples (ns) whose median is exactly `median_us`, with the given extremes."""
    m = int(median_us * 1000)
    low = int((low_us if low_us is not None else median_us - 0.5) * 1000)
    high = int((high_us if high_us is not None else median_us + 0.5) * 1000)
    return [low] + [m] * (count - 2) + [high]


def known_run() -> list[dict]:
    cells = [{"experiment": "simple", "role": "simple", "samples_ns": around(20)}]
    for operation, per_kib in (("octets", 0.05), ("records", 0.5)):
        cells += [{"experiment": "marshalling", "role": "size", "operation": operation,
                   "payload_bytes": size, "samples_ns": around(20 + per_kib * size / 1024)}
                  for size in (0, 1024, 4096, 16384)]
    for target, medians in (("random", (20, 22, 26, 34)), ("same", (20, 20, 20, 20))):
        cells += [{"experiment": "dispatcher", "role": "servants", "servants": count,
                   "options": {"target": target}, "samples_ns": around(median, 15, 60)}
                  for count, median in zip((1, 10, 100, 1000), medians, strict=True)]
    for threads, median in ((1, 20), (2, 38), (4, 76)):
        samples = around(median, count=10)
        header = {"series": [{"name": "thread-1", "count": 5, "wall_ns": 1},
                             {"name": "thread-2", "count": 5, "wall_ns": 1}]}
        cells.append({"experiment": "parallelism", "role": "threads", "threads": threads,
                      "samples_ns": samples, "measurer_header": header,
                      "wall_ns": int(sum(samples) / threads)})
    for background, median in (("none", 20), ("cpu:1", 24), ("cpu:2", 40)):
        generator = None if background == "none" else {
            "argv": ["/usr/bin/stress-ng", "--cpu", background[-1], "--timeout", "180s"],
            "version": "stress-ng, version 0.15.06"}
        cells.append({"experiment": "background", "background": background,
                      "samples_ns": around(median), "load_generator": generator})
    for size, servants, threads, median in ((4096, 100, 2, 47), (0, 10, 1, 20)):
        cells.append({"experiment": "mixture", "role": "mixture", "operation": "octets",
                      "payload_bytes": size, "servants": servants, "threads": threads,
                      "options": {"target": "random"}, "samples_ns": around(median)})
    for where, medians in (("one", (30, 40, 60)), ("each", (30, 50, 90))):
        for subscribers, median in zip((1, 2, 4), medians, strict=True):
            if where == "each" and subscribers == 1:
                continue  # one subscriber is one cell, stored as `one`, as a run stores it
            samples = around(median, count=10)
            cells.append({"experiment": "fanout", "operation": "fanout", "driver": "cyclonedds",
                          "subscribers": subscribers, "subscriber_processes": where,
                          "samples_ns": samples, "wall_ns": sum(samples)})
    return cells


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("factors") / "m.db"
    run_id = store_cells(db, known_run(), environment=ENVIRONMENT)
    store = Store.open_existing(db)
    try:
        return build_report(store, [run_id])
    finally:
        store.close()


def text(html: str) -> str:
    return markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_marshalling_fits_give_the_slope_and_r2_per_operation(html):
    table = text(html[html.index('id="run1-marshalling-fits"'):])
    assert "octets 4 0–16384 B 0.0500 20.00 1.0000 19,531" in table
    assert "records 4 0–16384 B 0.5000 20.00 1.0000 1,953" in table
    assert ("omniorb: records costs 0.5000 µs per KiB against 0.0500 for octets (×10.00): "
            "the type matters here: its elements are marshalled one by one") in text(html)


def test_dispatcher_says_which_shape_it_is_with_the_numbers(html):
    readings = text(html)
    assert ("dispatcher: target=random — median grows. From 1 to 1,000 servants: median "
            "20.00 → 34.00 µs (×1.70), minimum 15.00 → 15.00 µs (×1.00)") in readings
    assert "the sign of a poor object map (a sequential search or a degrading table)" in readings
    assert "dispatcher: target=same — flat." in readings
    assert ("Calling the same servant every time, the median goes ×1.00 against ×1.70 here: "
            "the growth comes from reaching different servants") in readings
    assert 'id="run1-dispatcher-0"' in html and 'id="run1-dispatcher-1"' in html


@pytest.mark.parametrize("medians, minimums, maximums, verdict", [
    ((20, 22, 26, 34), (15, 15, 15, 15), (60, 60, 60, 60), "median grows"),
    ((20, 22, 26, 34), (15, 17, 20, 26), (60, 60, 60, 60), "every call grows"),
    ((20, 20, 20, 20), (15, 15, 15, 15), (60, 90, 200, 400), "maximum grows"),
    ((20, 20, 20, 20), (15, 15, 15, 15), (60, 300, 70, 65), "flat"),  # one preemption
])
def test_dispatcher_verdicts(medians, minimums, maximums, verdict):
    stats = {"p50": np.array(medians, float), "min": np.array(minimums, float),
             "max": np.array(maximums, float), "p25": np.array(medians, float),
             "p75": np.array(medians, float), "p99": np.array(maximums, float)}
    assert interpret([1, 10, 100, 1000], stats)[0] == verdict


def test_parallelism_reports_per_thread_time_system_rate_and_crowding(html):
    table = text(html[html.index('id="run1-parallelism-table"'):])
    # threads 1: 2 busy threads on 2 CPUs; threads 2: 4 busy threads, more than the CPUs.
    assert re.search(r"parallelism all 1 20\.000 \S+ 20\.00–20\.00 [\d,]+ 2 ", table)
    assert re.search(r"parallelism all 2 38\.000 \S+ [\d.–]+ [\d,]+ 4 yes", table)
    assert 'id="run1-parallelism-threads"' in html
    # 5 of them here, 4 in the fan-out (2 and 4 subscribers, each placement).
    assert "9 cells had more busy threads than the machine's 2 CPUs" in text(html)


def test_fanout_gives_latency_events_per_second_and_the_cost_of_a_subscriber(html):
    table = text(html[html.index('id="run1-fanout-table"'):])
    # One process: medians 30, 40, 60 µs at 1, 2, 4 subscribers; least squares: 10 µs each.
    # Events/s: subscribers / mean time per event (the samples' mean, here the median).
    assert re.search(r"fanout in one process 1 30\.000 \S+ [\d,]+ 2 +10\.000", table)
    assert re.search(r"fanout in one process 4 60\.000 \S+ [\d,]+ 5 yes", table)
    # The line of a process each starts with the one-subscriber cell: 30, 50, 90 µs.
    assert re.search(r"fanout a process each 1 30\.000 \S+ [\d,]+ 2 +20\.000", table)
    assert re.search(r"fanout a process each 2 50\.000 ", table)
    assert 'id="run1-fanout-subscribers"' in html


def test_background_table_gives_ratios_and_the_exact_command(html):
    table = text(html[html.index('id="run1-background-table"'):])
    # One launch each: the ratios, launch by launch, say they have no interval.
    one = "(1 launch: no interval)"
    assert f"cpu:1 24.000 24.460 1.20 {one} 1.20 {one}" in table  # p99 of the samples: 24.46
    assert f"cpu:2 40.000 40.460 2.00 {one} 1.98 {one}" in table
    assert f"1.98 {one} /usr/bin/stress-ng --cpu 2 --timeout 180s" in table
    assert "The load generator: stress-ng, version 0.15.06;" in text(html)


def test_estimate_section_compares_each_mixture_cell_and_summarizes_errors(html):
    # (4096 B, 100, 2): (20 + 20.2 - 20 + 26 - 20) * 38 / 20 = 49.78 against 47: +5.91%.
    # (0 B, 10, 1): 20 + 22 - 20 = 22 against 20: +10%. Mean and median 7.96%.
    section = text(html[html.index('id="run1-estimate"'):])
    assert ("Over all combinations (2): mean error 8.0%, median error 8.0%, largest 10.0%"
            in section)
    assert "where every busy thread had a CPU (1): mean error 10.0%" in section
    assert "octets 4096 100 2 47.000 49.780 +5.9% yes 1, 2, 4, 10, 12, 18, 19" in section
    assert "octets 0 10 1 20.000 22.000 +10.0%" in section
    assert 'id="run1-estimate-scatter"' in html


def test_every_new_figure_says_what_it_shows(html):
    assert html.count("<strong>What it shows:</strong>") == html.count("<figure")
    assert html.count("<svg") == html.count("<figure")


def test_an_experiment_of_many_configurations_is_not_drawn_box_by_box(tmp_path):
    cells = [{"experiment": "wide", "operation": "octets", "payload_bytes": size,
              "samples_ns": around(20 + size / 1024)} for size in range(0, 41 * 64, 64)]
    run_id = store_cells(tmp_path / "m.db", cells, environment=ENVIRONMENT)
    store = Store.open_existing(tmp_path / "m.db")
    page = build_report(store, [run_id])
    assert "41 configurations: too many to draw one box or percentile line each" in page
    assert 'id="run1-wide-box-remote"' not in page
    assert 'id="run1-wide-sweep-payload_bytes-remote"' in page


def test_an_inout_payload_is_compared_per_byte_moved():
    from mwbench.report.factors.marshalling import type_notes

    def row(operation, slope):
        return {"operation": operation, "slope": slope, "driver": "omniorb",
                "experiment": "m", "series": f"omniorb {operation}"}

    notes = type_notes([row("octets", 0.4), row("octets_inout", 0.88), row("octets_out", 1.0)])
    assert notes == [
        "omniorb: octets_inout costs 0.8800 µs per KiB against 0.4000 for octets (×2.20; it "
        "moves the payload both ways, so ×1.10 per byte moved): per byte moved, the direction "
        "or type hardly matters.",
        "omniorb: octets_out costs 1.0000 µs per KiB against 0.4000 for octets (×2.50): the "
        "direction matters here, beyond the bytes it moves."]
