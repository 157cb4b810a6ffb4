"""Context switches per 1,000 calls: from result headers to the export and the report's table."""

import numpy as np
import pytest

from mwbench.context_switches import per_1000_calls, switches
from mwbench.report.data import Configuration, Experiment
from mwbench.report.tables import summary_rows


def header(voluntary, involuntary, samples=2000, batch=1, warmup=500, threads=1):
    return {"sample_count": samples, "batch_size": batch, "warmup": warmup, "threads": threads,
            "rusage": {"voluntary_switches": voluntary, "involuntary_switches": involuntary,
                       "user_us": 0, "system_us": 0, "max_rss_kb": -1}}


def test_switches_add_voluntary_and_involuntary():
    assert switches(header(30, 4)) == 34
    assert switches({"sample_count": 1}) is None and switches(None) is None


def test_client_per_measured_call_server_per_served_call():
    # 2 switches a call for 2,000 measured calls; the server also served 500 warm-up calls.
    client, server = per_1000_calls(header(3990, 10), header(4990, 10, samples=0, warmup=0))
    assert client == pytest.approx(2000.0)
    assert server == pytest.approx(1000.0 * 5000 / 2500)


def test_batches_and_threads_count_every_call():
    client, _ = per_1000_calls(header(100, 0, samples=100, batch=64, threads=2), None)
    assert client == pytest.approx(1000.0 * 100 / 6400)


def test_collocated_or_unknown_has_none():
    assert per_1000_calls(header(10, 0), None) == (pytest.approx(5.0), None)
    assert per_1000_calls(None, None) == (None, None)
    assert per_1000_calls({"sample_count": 10, "batch_size": 1}, None) == (None, None)


def test_report_table_gives_the_median_over_launches():
    cells = [{"batch_size": 1, "measurer_header": header(v, 0), "server_header": header(v, 0)}
             for v in (2000, 4000, 6000)]
    launches = {k: np.array([1.0, 2.0, 3.0]) for k in (1, 2, 3)}
    configuration = Configuration(factors={}, cells=cells, launches=launches,
                                  per_call_us=np.concatenate(list(launches.values())),
                                  throughput_per_s=[1000.0], label="ccm comp-comp")
    row = summary_rows(Experiment("scenarios", [configuration], [], None))[0]
    assert row["client_switches"] == pytest.approx(2000.0)
    assert row["server_switches"] == pytest.approx(1000.0 * 4000 / 2500)
