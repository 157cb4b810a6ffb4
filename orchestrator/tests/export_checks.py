"""Helpers of the export tests: a store of known samples, the HdrHistogram
precision check, and the two readers of HdrHistogram logs (Python hdrh, and
the Java reference tool).

Not a test module (pytest collects test_*.py only); the export tests of each
format import it, so they build stores and judge percentiles the same way.
"""

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

from mwbench import paths
from mwbench.export.hdr_log import HIGHEST_NS, LOWEST_NS, SIGNIFICANT_DIGITS
from mwbench.store import CellRecord, Store

# Fetched by scripts/setup.sh (mvn dependency:copy); keep the version in step with it.
HDR_JAVA_JAR = paths.repo_root() / ".cache" / "java" / "HdrHistogram-2.2.2.jar"

FACTORS = dict(experiment="ping", driver="rawtcp", transport="tcp", mode="remote",
               operation="roundtrip", payload_bytes=0, placement="same-cpu", idle_hold=True,
               priority=0, servants=None, threads=None, subscribers=None,
               subscriber_processes=None, options=None, background="none", orb=None,
               assembly=None, delivery=None, layer=None, hosts=None, invocation=None,
               dispatch=None, load=None,
               launch=1)


def latency_samples(count: int, seed: int = 1, scale_ns: float = 20_000) -> np.ndarray:
    """Skewed, tailed int64 samples like a real round trip: lognormal around scale_ns."""
    rng = np.random.default_rng(seed)
    return np.rint(scale_ns * rng.lognormal(0.0, 0.35, count)).astype(np.int64)


def make_store(path: Path, cells: list[tuple[dict, np.ndarray | None, int | None]]) -> int:
    """A finished run of the given cells: (factor overrides, samples, batch size).

    A cell with samples None is stored as failed, like a server that exited.
    """
    store = Store.create_or_open(path)
    run_id = store.begin_run("quick", "s.yaml", "suite: quick", {}, "0.1.0")
    for overrides, samples, batch_size in cells:
        factors = {**FACTORS, **overrides}
        if samples is None:
            record = CellRecord(factors=factors, status="failed",
                                error="server exited with status 3\n--- stderr ---\nboom")
        else:
            per_call_us = samples / batch_size / 1000
            stats = {"samples": samples.size, "p50_us": float(np.percentile(per_call_us, 50))}
            record = CellRecord(factors=factors, status="ok", stats=stats, samples_ns=samples,
                                batch_size=batch_size, duration_s=1.25)
        store.add_cell(run_id, record)
    store.end_run(run_id, "finished")
    store.close()
    return run_id


def assert_hdr_percentile(value: float, per_call_ns: np.ndarray, percentile: float) -> None:
    """`value`, an HdrHistogram percentile, is the samples' own within the histogram's precision.

    HdrHistogram answers with the highest value of the bucket holding the
    sample at the percentile's rank (the lowest, at percentile 0), so it is off
    from numpy by the bucket's width (10**-digits relative), by the rounding of
    per-call times to whole ns, and by the rank convention: numpy interpolates,
    Java takes ceil(p * n), Python hdrh rounds. The band spans those ranks.
    """
    ordered = np.sort(np.asarray(per_call_ns, dtype=np.float64))
    rank = percentile / 100 * ordered.size
    low = ordered[max(math.floor(rank) - 1, 0)]
    high = ordered[min(math.ceil(rank), ordered.size - 1)]
    precision = 10.0 ** -SIGNIFICANT_DIGITS
    assert low * (1 - precision) - 0.5 <= value <= high * (1 + precision) + 0.5, (
        f"p{percentile}: {value} ns is outside [{low}, {high}] ns ± HdrHistogram's precision "
        f"(numpy: {np.percentile(ordered, percentile)})")


def java_log_processor(*args: str) -> str:
    """Standard output of the Java reference `HistogramLogProcessor` with these arguments."""
    if not HDR_JAVA_JAR.is_file():
        pytest.fail(f"{HDR_JAVA_JAR} is missing: run `make setup` (scripts/setup.sh fetches "
                    "HdrHistogram's Java reference implementation with mvn)")
    if shutil.which("java") is None:
        pytest.fail("java is not installed: run `make setup` (scripts/setup.sh installs it)")
    completed = subprocess.run(
        # -XX:-UsePerfData: no /tmp/hsperfdata_* left behind.
        ["java", "-XX:-UsePerfData", "-cp", str(HDR_JAVA_JAR),
         "org.HdrHistogram.HistogramLogProcessor", *args],
        capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def java_percentiles(log: Path, tag: str) -> list[tuple[float, float, int]]:
    """(value ns, percentile 0..100, count) rows the Java tool prints for one tag."""
    out = java_log_processor("-i", str(log), "-tag", tag, "-csv", "-outputValueUnitRatio", "1")
    rows = [line.split(",") for line in out.splitlines() if line[:1].isdigit()]
    return [(float(value), float(fraction) * 100, int(count))
            for value, fraction, count, *_ in rows]


def read_log(log: Path) -> dict[str, HdrHistogram]:
    """Each histogram of an HdrHistogram log by its tag, read with the Python hdrh reader."""
    reader = HistogramLogReader(str(log), HdrHistogram(LOWEST_NS, HIGHEST_NS, SIGNIFICANT_DIGITS))
    histograms = {}
    while (histogram := reader.get_next_interval_histogram()) is not None:
        histograms[histogram.get_tag()] = histogram
    reader.close()
    return histograms
