"""`mwbench export --format hdr`, read by the HdrHistogram tools themselves.

The claim is that the log is readable by the HdrHistogram tools, so it is
checked with the Java reference implementation's `HistogramLogProcessor`
(scripts/setup.sh fetches its jar): it must find every tag, select each cell
by its tag, and print percentiles that are the raw samples' own within
HdrHistogram's precision. A missing jar or java is a failure, not a skip.
"""

from click.testing import CliRunner

from export_checks import (
    FACTORS,
    assert_hdr_percentile,
    java_log_processor,
    java_percentiles,
    latency_samples,
    make_store,
)
from mwbench.cli import main
from mwbench.export.hdr_tags import cell_tag

ODD_OPTIONS = {"fault": "exit", "note": "a b,c/d+e=f%-"}


def test_java_log_processor_reads_every_cell_by_its_tag(tmp_path):
    db, log = tmp_path / "m.db", tmp_path / "cells.hlog"
    remote, batched = latency_samples(30_000), latency_samples(10_000, seed=3, scale_ns=2_900)
    cells = {
        "remote": ({}, remote, 1),
        "batched": ({"mode": "collocated", "transport": "inproc", "driver": "omniorb"},
                    batched, 64),
        "odd": ({"options": ODD_OPTIONS, "servants": 2}, remote[:777], 1),
        "failed": ({"driver": "omniorb"}, None, None),
    }
    run_id = make_store(db, list(cells.values()))
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--format", "hdr",
                                       "-o", str(log)])
    assert result.exit_code == 0, result.output
    tags = {name: cell_tag(run_id, {**FACTORS, **overrides})
            for name, (overrides, _, _) in cells.items()}

    listed = java_log_processor("-i", str(log), "-listtags").splitlines()
    assert sorted(listed[1:]) == sorted(tags[name] for name in ("remote", "batched", "odd"))

    for name in ("remote", "batched", "odd"):
        _, samples, batch_size = cells[name]
        per_call = samples / batch_size
        rows = java_percentiles(log, tags[name])
        assert rows, f"the Java tool printed no percentiles for {tags[name]}"
        assert rows[-1][1] == 100.0 and rows[-1][2] == samples.size
        for value, percentile, _ in rows:
            assert_hdr_percentile(value, per_call, percentile)
    assert java_percentiles(log, tags["failed"]) == []  # listed in the header, no histogram
