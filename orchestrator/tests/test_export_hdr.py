"""`mwbench export --format hdr`: the log read back with the Python hdrh reader.

The log must give back, per tagged cell, a histogram whose percentiles are the
raw samples' own within HdrHistogram's precision; its header must name every
tag's factors and every failed cell; tags must survive any factor value.
"""

import numpy as np
from click.testing import CliRunner
from hdrh.histogram import HdrHistogram

from export_checks import (
    FACTORS,
    assert_hdr_percentile,
    latency_samples,
    make_store,
    read_log,
)
from mwbench.cli import main
from mwbench.export.hdr_log import HIGHEST_NS, LOWEST_NS, SIGNIFICANT_DIGITS, histogram_of
from mwbench.export.hdr_tags import cell_tag, parse_tag
from mwbench.store import FACTOR_COLUMNS

PERCENTILES = (0, 1, 25, 50, 75, 90, 99, 99.9, 99.99, 100)
ODD_OPTIONS = {"fault": "exit", "note": "a b,c/d+e=f%-"}


def export_hdr(tmp_path, cells):
    db, log = tmp_path / "m.db", tmp_path / "cells.hlog"
    run_id = make_store(db, cells)
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "hdr",
                                       "-o", str(log)])
    assert result.exit_code == 0, result.output
    return run_id, log, result


def test_each_cell_reads_back_with_its_samples_percentiles(tmp_path):
    remote, batched = latency_samples(50_000), latency_samples(20_000, seed=2, scale_ns=3_100)
    run_id, log, _ = export_hdr(tmp_path, [
        ({}, remote, 1),
        ({"mode": "collocated", "transport": "inproc", "driver": "omniorb"}, batched, 64),
        ({"options": ODD_OPTIONS, "payload_bytes": 1024}, remote[:999], 1),
    ])
    histograms = read_log(log)
    expected = {
        cell_tag(run_id, FACTORS): remote,
        cell_tag(run_id, {**FACTORS, "mode": "collocated", "transport": "inproc",
                          "driver": "omniorb"}): batched / 64,
        cell_tag(run_id, {**FACTORS, "options": ODD_OPTIONS, "payload_bytes": 1024}):
            remote[:999],
    }
    assert set(histograms) == set(expected)
    for tag, per_call in expected.items():
        histogram = histograms[tag]
        assert histogram.get_total_count() == per_call.size
        for percentile in PERCENTILES:
            assert_hdr_percentile(histogram.get_value_at_percentile(percentile), per_call,
                                  percentile)


def test_header_lists_every_tag_with_its_factors_and_the_failed_cells(tmp_path):
    run_id, log, result = export_hdr(tmp_path, [({}, latency_samples(100), 1),
                                                ({"driver": "omniorb"}, None, None)])
    lines = log.read_text().splitlines()
    assert lines[0] == "#[Histogram log format version 1.3]"
    assert lines[2].startswith("#[StartTime: ") and lines[3].startswith("#[BaseTime: ")
    legend = lines.index('"StartTimestamp","Interval_Length","Interval_Max",'
                         '"Interval_Compressed_Histogram"')
    assert all(line.startswith("#") for line in lines[:legend])
    assert all(line.startswith("Tag=") for line in lines[legend + 1:])
    ok_tag = cell_tag(run_id, FACTORS)
    failed_tag = cell_tag(run_id, {**FACTORS, "driver": "omniorb"})
    assert any(line.startswith(f"#   {ok_tag} {{") and '"cell_id": 1' in line for line in lines)
    assert f"#   cell 2 {failed_tag}: server exited with status 3" in lines  # first line only
    assert [line.split(",")[0] for line in lines[legend + 1:]] == [f"Tag={ok_tag}"]
    assert "skipped 1 failed cell(s), listed in the log's header: cell 2" in result.stderr
    start, length, max_ms = (float(x) for x in lines[-1].split(",")[1:4])
    assert start >= 0 and length == 1.25
    assert abs(max_ms - latency_samples(100).max() / 1e6) < 1e-3  # ms, the tools' convention


def test_tags_are_parseable_unique_and_free_of_separators():
    odd = {**FACTORS, "options": ODD_OPTIONS, "transport": "-", "servants": 4,
           "threads": 2, "priority": 99, "idle_hold": False, "payload_bytes": None,
           "background": "cpu:2", "orb": "jacorb", "assembly": "static", "delivery": "channel",
           "layer": "object", "hosts": "client=host-1 subscribers=host-2,host-3",
           "invocation": "dii", "dispatch": "dsi", "load": "poisson:2500.5"}
    fanout = {**FACTORS, "operation": "fanout", "subscribers": 16,
              "subscriber_processes": "each"}
    for factors in (FACTORS, odd, fanout):
        tag = cell_tag(7, factors)
        assert not set(tag) & set(", \r\n\t")
        assert parse_tag(tag) == {"run_id": 7, **{k: factors[k] for k in FACTOR_COLUMNS}}
    assert cell_tag(1, FACTORS) == \
        "run1/ping/rawtcp/remote/tcp/roundtrip/0B/same-cpu/hold/-/launch1"
    assert cell_tag(1, FACTORS) != cell_tag(1, {**FACTORS, "launch": 2})
    assert cell_tag(1, odd).endswith(
        "/orb=jacorb/assembly=static/delivery=channel/layer=object/invocation=dii/dispatch=dsi"
        "/background=cpu%3A2/load=poisson%3A2500.5"
        "/hosts=client%3Dhost-1%20subscribers%3Dhost-2%2Chost-3")


def test_cells_with_equal_factors_get_distinct_tags(tmp_path):
    _, log, _ = export_hdr(tmp_path, [({}, latency_samples(10), 1), ({}, latency_samples(10), 1)])
    assert len(read_log(log)) == 2


def test_bucketed_recording_equals_recording_each_value():
    values = np.concatenate([latency_samples(5000), [0, 1, 2047, 2048, 2049, 4095, 4096,
                                                    10**9 + 7, HIGHEST_NS]])
    fast, clamped = histogram_of(values.astype(np.float64))
    slow = HdrHistogram(LOWEST_NS, HIGHEST_NS, SIGNIFICANT_DIGITS)
    for value in values.tolist():
        slow.record_value(value)
    assert clamped == 0
    assert list(fast.counts) == list(slow.counts)
    assert fast.get_total_count() == slow.get_total_count() == values.size
    assert fast.encode() == slow.encode()


def test_values_beyond_an_hour_are_clamped_and_said(tmp_path):
    samples = np.array([1000, 2 * HIGHEST_NS], dtype=np.int64)
    _, log, result = export_hdr(tmp_path, [({}, samples, 1)])
    assert "cell 1: 1 values above one hour clamped to it" in result.stderr
    assert "# cell 1: 1 values above one hour clamped to it" in log.read_text()
    assert next(iter(read_log(log).values())).get_total_count() == 2
