"""`mwbench export --format samples|hdr` end to end, on a run of the real drivers.

A tiny spec runs remote and collocated (batched) cells and one that fails on
purpose; both per-sample exports must then agree with what the run stored:
the samples CSV gives back each cell's median exactly, and the HdrHistogram
log gives every ok cell to the Python reader and to the Java tool with the
samples' percentiles, and lists the failed cell.
"""

import csv
import json
import subprocess
import textwrap
from collections import defaultdict

import numpy as np
import pytest

from conftest import driver_built, mwbench_exe
from export_checks import assert_hdr_percentile, java_percentiles, read_log

SPEC = """\
suite: tiny
defaults: {launches: 1, warmup: 50, samples: 300, placement: same-cpu, idle_hold: true,
           timeout_s: 20}
experiments:
  - {name: ping, operation: roundtrip, drivers: [rawtcp, omniorb], transports: tcp,
     modes: [remote, collocated]}
  - {name: broken, operation: roundtrip, drivers: rawtcp, transports: tcp,
     options: {fault: exit}}
"""


@pytest.fixture(autouse=True)
def _drivers_are_built():
    # Not a skip: `make test` builds the drivers first, so a missing one is a fault.
    for name in ("rawtcp", "omniorb"):
        if not driver_built(name):
            pytest.fail(f"driver {name} is not built: run `make test`, which builds it first")


def mwbench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([mwbench_exe(), *args], capture_output=True, text=True, timeout=300,
                          check=False)


def test_samples_and_hdr_exports_of_a_real_run(tmp_path):
    spec, db = tmp_path / "spec.yaml", tmp_path / "m.db"
    spec.write_text(textwrap.dedent(SPEC))
    ran = mwbench("run", str(spec), "--db", str(db))
    assert ran.returncode == 1, ran.stdout + ran.stderr  # the broken cell fails, the rest run
    cells = json.loads(mwbench("export", "--db", str(db), "--format", "json").stdout)["cells"]
    ok = {cell["cell_id"]: cell for cell in cells if cell["status"] == "ok"}
    assert len(ok) == 3 and any(cell["batch_size"] > 1 for cell in ok.values())

    samples_csv, log = tmp_path / "samples.csv", tmp_path / "cells.hlog"
    for fmt, path in (("samples", samples_csv), ("hdr", log)):
        exported = mwbench("export", "--db", str(db), "--format", fmt, "-o", str(path))
        assert exported.returncode == 0, exported.stderr
        assert "skipped 1 failed cell(s)" in exported.stderr

    per_call = defaultdict(list)
    with open(samples_csv, newline="") as stream:
        for row in csv.DictReader(stream):
            assert float(row["per_call_ns"]) == int(row["value_ns"]) / int(row["batch_size"])
            per_call[int(row["cell_id"])].append(float(row["per_call_ns"]))
    assert set(per_call) == set(ok)
    for cell_id, cell in ok.items():
        assert len(per_call[cell_id]) == cell["samples"] == 300
        assert np.percentile(np.array(per_call[cell_id]) / 1000, 50) == pytest.approx(
            cell["p50_us"], rel=1e-12)

    header = [line for line in log.read_text().splitlines() if line.startswith("#   ")]
    tags = {json.loads(line.split(" ", 4)[4])["cell_id"]: line.split(" ")[3]
            for line in header if line.endswith("}")}
    assert set(tags) == set(ok)
    assert any(line.startswith("#   cell ") and "/broken/" in line for line in header)
    histograms = read_log(log)
    for cell_id, tag in tags.items():
        values = np.array(per_call[cell_id])
        assert histograms[tag].get_total_count() == values.size
        for percentile in (50, 90, 99):
            assert_hdr_percentile(histograms[tag].get_value_at_percentile(percentile), values,
                                  percentile)
        for value, percentile, _ in java_percentiles(log, tag):
            assert_hdr_percentile(value, values, percentile)
