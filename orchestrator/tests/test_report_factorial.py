"""The report's factorial section on known stored cells: effects, shares, intervals, wording.

The run's spec declares `factorial: [options.threading, options.connections]`
on experiment `design`, measured on two transports (two configurations of
the other factors). Each launch of a cell has three calls m - d, m, m + d
(µs), so its median is m, its standard deviation d and p99 - p50 is 0.98 d:

    threading        connections   medians m (3 launches)   d
    per-connection   own           10 11 12                    0.5
    pool             own           20 21 22                    1.5
    per-connection   shared        14 15 16                    0.5
    pool             shared        30 31 32                    1.5

    median:  threading +13, connections +7, interaction +3 (test_factorial_design.py);
             shares 507, 147, 27 and error 8 of 689
    jitter:  threading +1.0 (100%), connections and interaction 0

On transport uds, the pool/shared cell failed: that design is incomplete.
Experiment `single` is the tcp design with one launch; `unbalanced` the
tcp design whose third launch failed in the pool/own cell.
"""

import html as markup
import re

import numpy as np
import pytest

from conftest import store_cells, stored_run
from mwbench.report import build_report
from mwbench.report.data import load_run
from mwbench.report.factors.factorial import designs
from mwbench.store import Store

SPEC = """\
suite: known
experiments:
  - name: design
    operation: ping
    drivers: omniorb
    transports: [tcp, uds]
    threads: 2
    launches: 3
    options: {threading: [per-connection, pool], connections: [own, shared]}
    factorial: [options.threading, options.connections]
  - name: single
    operation: ping
    drivers: omniorb
    transports: tcp
    options: {threading: [per-connection, pool], connections: [own, shared]}
    factorial: [options.threading, options.connections]
  - name: unbalanced
    operation: ping
    drivers: omniorb
    launches: 3
    options: {threading: [per-connection, pool], connections: [own, shared]}
    factorial: [options.threading, options.connections]
"""
CELLS = {("per-connection", "own"): ((10, 11, 12), 0.5), ("pool", "own"): ((20, 21, 22), 1.5),
         ("per-connection", "shared"): ((14, 15, 16), 0.5),
         ("pool", "shared"): ((30, 31, 32), 1.5)}


def calls(median_us: float, spread_us: float) -> list[int]:
    return [int(1000 * (median_us + offset)) for offset in (-spread_us, 0, spread_us)]


def known_cells() -> list[dict]:
    cells = []
    for (threading, connections), (medians, spread) in CELLS.items():
        options = {"threading": threading, "connections": connections}
        for transport in ("tcp", "uds"):
            for launch, median in enumerate(medians, start=1):
                cell = {"experiment": "design", "transport": transport, "threads": 2,
                        "options": options, "launch": launch,
                        "samples_ns": calls(median, spread)}
                if transport == "uds" and threading == "pool" and connections == "shared":
                    cell = {**cell, "error": "server exited with status 1"}
                    del cell["samples_ns"]
                cells.append(cell)
        cells.append({"experiment": "single", "options": options,
                      "samples_ns": calls(medians[1], spread)})
        for launch, median in enumerate(medians, start=1):
            cells.append({"experiment": "unbalanced", "options": options,
                          "launch": launch, "samples_ns": calls(median, spread)})
            if launch == 3 and (threading, connections) == ("pool", "own"):
                cells[-1] = {**cells[-1], "error": "client timed out"}
                del cells[-1]["samples_ns"]
    return cells


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    db = tmp_path_factory.mktemp("factorial") / "m.db"
    with stored_run(db, known_cells(), spec_text=SPEC) as opened:
        yield opened


@pytest.fixture(scope="module")
def section(stored):
    store, run_id = stored
    return designs(load_run(store, run_id))


def by_name(design: dict) -> dict:
    return {row["name"]: row["metrics"] for row in design["effects"]}


def test_one_design_per_configuration_of_the_other_factors(section):
    found = [(d["experiment"], d["configuration"]) for d in section["designs"]]
    assert found == [("design", "tcp"), ("design", "uds"), ("single", "all"),
                     ("unbalanced", "all")]
    assert section["notes"] == []


def test_effects_of_the_median_are_those_worked_out_by_hand(section):
    tcp = section["designs"][0]
    assert tcp["launches"] == 3
    # The options left once the design's are taken out are the same everywhere: nothing
    # outside the design is carried by its cells.
    assert tcp["carried"] == [] and all(c["carried"] == [] for c in tcp["cells"])
    assert [c["levels"] for c in tcp["cells"]] == [
        ["per-connection", "own"], ["pool", "own"], ["per-connection", "shared"],
        ["pool", "shared"]]
    assert [c["means"]["median"] for c in tcp["cells"]] == pytest.approx([11, 21, 15, 31])
    effects = by_name(tcp)
    assert list(effects) == ["options.threading", "options.connections",
                             "options.threading × options.connections"]
    median = [effects[name]["median"] for name in effects]
    assert [e.estimate for e in median] == pytest.approx([13, 7, 3])
    assert [e.share for e in median] == pytest.approx([507 / 689, 147 / 689, 27 / 689])
    assert tcp["error"]["median"] == pytest.approx(8 / 689)
    for effect in median:
        assert effect.interval[0] <= effect.estimate <= effect.interval[1]


def test_each_factor_at_each_level_of_the_other_is_a_ratio_of_medians(section):
    tcp = section["designs"][0]
    ratios = {(row["factor"], row["at"]): row["ratio"].value for row in tcp["ratios"]}
    # Launch by launch, the median of the pairs' ratios: 21/11, 31/15, 15/11, 31/21.
    assert ratios == pytest.approx({
        ("options.threading", "options.connections=own"): 21 / 11,
        ("options.threading", "options.connections=shared"): 31 / 15,
        ("options.connections", "options.threading=per-connection"): 15 / 11,
        ("options.connections", "options.threading=pool"): 31 / 21})


def test_jitter_is_the_standard_deviation_and_the_tail_is_p99_minus_p50(section):
    tcp = section["designs"][0]
    assert [c["means"]["jitter"] for c in tcp["cells"]] == pytest.approx([0.5, 1.5, 0.5, 1.5])
    assert [c["means"]["tail"] for c in tcp["cells"]] == pytest.approx(
        [0.49, 1.47, 0.49, 1.47])
    jitter = [metrics["jitter"] for metrics in by_name(tcp).values()]
    assert [e.estimate for e in jitter] == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)
    assert jitter[0].share == pytest.approx(1.0)


def test_throughput_is_the_mean_of_the_launches_rates(section):
    # Three calls in the sum of their times: 1e6 / m calls per second for median m.
    tcp = section["designs"][0]
    expected = [np.mean([1e6 / m for m in medians]) for medians, _ in CELLS.values()]
    assert [c["means"]["throughput"] for c in tcp["cells"]] == pytest.approx(expected)


def test_the_sentence_names_the_largest_effect_and_the_interaction(section):
    tcp, _, single, _ = section["designs"]
    assert tcp["sentence"] == (
        "Median time per call: options.threading matters most (74% of the variation, "
        "+13.000 µs from per-connection to pool); the interaction "
        "options.threading × options.connections is significant (95% bootstrap interval "
        "excludes 0).")
    assert "with one launch there is no interval" in single["sentence"]


def test_one_launch_gives_effects_without_interval_or_error(section):
    single = section["designs"][2]
    assert single["launches"] == 1
    median = [metrics["median"] for metrics in by_name(single).values()]
    assert [e.estimate for e in median] == pytest.approx([13, 7, 3])
    assert all(e.interval is None for e in median)
    assert single["error"]["median"] is None


def test_a_launch_failed_in_one_cell_is_left_out_of_every_cell(section):
    unbalanced = section["designs"][3]
    assert unbalanced["launches"] == 2 and unbalanced["dropped"] == 1
    assert [c["means"]["median"] for c in unbalanced["cells"]] == pytest.approx(
        [10.5, 20.5, 14.5, 30.5])
    median = [metrics["median"] for metrics in by_name(unbalanced).values()]
    assert [e.estimate for e in median] == pytest.approx([13, 7, 3])


def test_an_incomplete_design_names_its_missing_cell(section):
    uds = section["designs"][1]
    assert uds["missing"] == ["options.threading=pool, options.connections=shared"]
    assert uds["effects"] == []


@pytest.fixture(scope="module")
def page(stored) -> str:
    store, run_id = stored
    return build_report(store, [run_id])


def text(page: str) -> str:
    return markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_the_report_renders_each_design_with_tables_captions_and_figure(page):
    assert 'id="run1-factorial"' in page
    for index in (0, 2):
        for part in ("cells", "effects", "reading", "interaction"):
            assert f'id="run1-factorial-design-{index}-{part}"'.replace(
                "design-2", "single-2") in page
    assert 'id="run1-factorial-design-1-incomplete"' in page
    words = text(page)
    assert "options.threading × options.connections" in words
    assert "+13.000 [" in words and "73.6%" in words and "1.2%" in words
    assert "3 launches per cell; brackets: 95% percentile bootstrap interval" in words
    assert "One launch per cell: no interval and no error term" in words
    assert "1 launch(es) failed in some cell and are left out of every cell" in words
    assert "missing: options.threading=pool, options.connections=shared." in words
    assert words.count("What the tables show:") == 3  # one per complete design
    assert words.count("When they may not apply:") == 3
    assert page.count("<strong>What it shows:</strong>") == page.count("<figure")


def test_a_run_without_factorial_has_no_section(tmp_path):
    db = tmp_path / "m.db"
    run_id = store_cells(db, [{"samples_ns": calls(10, 1)}])
    store = Store.open_existing(db)
    try:
        found = designs(load_run(store, run_id))
        assert found["designs"] == [] and found["notes"] == []
        assert "factorial" not in build_report(store, [run_id])
    finally:
        store.close()
