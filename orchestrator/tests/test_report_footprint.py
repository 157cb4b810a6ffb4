"""The report's Footprint table on known stored cells: a JVM's classes beside C++'s rusage.

Experiment `method-call` has two configurations of three launches:

    java jacorb: the client's header records footprint {classes_loaded, class_bytes,
                 rss_kb, hwm_kb} = 3000/3100/3200 classes, 20/21/22 MiB of classes,
                 100 MiB resident, peak 110 MiB; jvm_pauses count 2/3/4, total 1/2/3 ms,
                 max 0.5/0.8/0.7 ms; the server's the same footprint, no pauses.
                 Its samples are 10, 11, 50, 12 µs: the slowest is the third, and the
                 jvm_pause series is 0 0 300000 0 in launches 1 and 2 (the slowest sample
                 paused) and 300000 0 0 0 in launch 3 (it did not).
    ccm omniorb: no footprint, only rusage.max_rss_kb 8192/9216/10240 (client) and
                 20480 (server).

Experiment `cpp-only` has C++ cells alone, and so no Footprint table.
"""

import html as markup
import re

import numpy as np
import pytest

from conftest import stored_run
from mwbench.named_series import NamedSeries
from mwbench.report import build_report
from mwbench.report.data import load_run
from mwbench.report.footprint import table

MIB = 1024 * 1024


def usage(max_rss_kb: int) -> dict:
    return {"voluntary_switches": 1, "involuntary_switches": 0, "user_us": 1, "system_us": 1,
            "max_rss_kb": max_rss_kb}


def java_cell(launch: int) -> dict:
    footprint = {"classes_loaded": 2900 + 100 * launch, "class_bytes": (19 + launch) * MIB,
                 "rss_kb": 100 * 1024, "hwm_kb": 110 * 1024}
    pauses = {"count": launch + 1, "total_ns": launch * 1_000_000,
              "max_ns": (500_000, 800_000, 700_000)[launch - 1]}
    paused = [0, 0, 300_000, 0] if launch < 3 else [300_000, 0, 0, 0]
    return {"experiment": "method-call", "driver": "java", "orb": "jacorb", "launch": launch,
            "samples_ns": [10_000, 11_000, 50_000, 12_000],
            "named_series": NamedSeries({"jvm_pause": np.array(paused, dtype=np.int64)}),
            "measurer_header": {"rusage": usage(120 * 1024), "middleware_config": {
                "footprint": footprint, "jvm_pauses": pauses}},
            "server_header": {"middleware_config": {"footprint": footprint}}}


def ccm_cell(launch: int) -> dict:
    return {"experiment": "method-call", "driver": "ccm", "orb": "omniorb", "launch": launch,
            "samples_ns": [8_000, 9_000, 10_000],
            "measurer_header": {"rusage": usage((7 + launch) * 1024),
                                "middleware_config": {"scenario": "obj-obj"}},
            "server_header": {"rusage": usage(20 * 1024)}}


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    cells = [java_cell(launch) for launch in (1, 2, 3)]
    cells += [ccm_cell(launch) for launch in (1, 2, 3)]
    cells += [{**ccm_cell(1), "experiment": "cpp-only"}]
    with stored_run(tmp_path_factory.mktemp("footprint") / "m.db", cells) as opened:
        yield opened


@pytest.fixture(scope="module")
def rows(stored):
    store, run_id = stored
    experiments = {e.name: e for e in load_run(store, run_id).experiments}
    assert table(experiments["cpp-only"]) == []
    return {(row["configuration"], row["process"]): row
            for row in table(experiments["method-call"])}


def test_a_jvms_classes_and_memory_are_the_medians_over_launches(rows):
    client = rows[("java jacorb orb", "measuring")]
    assert (client["classes"], client["class_bytes"]) == ("3,100", "21.0 MiB")
    assert (client["resident"], client["peak"]) == ("100.0 MiB", "110.0 MiB")
    server = rows[("java jacorb orb", "server")]
    assert server["classes"] == "3,100" and server["pauses"] == "–"
    assert client["launches"] == server["launches"] == 3


def test_a_cpp_driver_shows_its_peak_resident_set_from_rusage(rows):
    client = rows[("ccm omniorb orb", "measuring")]
    assert (client["classes"], client["class_bytes"], client["resident"]) == ("–", "–", "–")
    assert client["peak"] == "9.0 MiB"
    assert rows[("ccm omniorb orb", "server")]["peak"] == "20.0 MiB"
    assert client["pauses"] == "–" and client["slowest_in_pause"] == "–"


def test_pauses_and_whether_the_slowest_sample_fell_in_one(rows):
    client = rows[("java jacorb orb", "measuring")]
    assert (client["pauses"], client["pause_total"], client["pause_max"]) == (
        "3", "2.00 ms", "0.80 ms")
    assert client["slowest"] == "50.0 µs"
    assert client["slowest_in_pause"] == "2 of 3"


def test_the_report_renders_the_table_where_a_jvm_recorded_one(stored):
    store, run_id = stored
    page = build_report(store, [run_id])
    assert f'id="run{run_id}-method-call-footprint-table"' in page
    assert f'id="run{run_id}-cpp-only-footprint' not in page
    words = markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    assert "java jacorb orb measuring 3,100 21.0 MiB 100.0 MiB 110.0 MiB 3 2.00 ms 0.80 ms " \
        "50.0 µs 2 of 3 3" in words


def test_a_jvm_footprint_is_not_an_assemblys():
    """The deploy driver's footprint table (its processes' mapped files) leaves out a JVM's
    classes, which this table shows: one configuration is never in both."""
    from mwbench.report import phases

    jvm = {"middleware_config": {"footprint": {"classes_loaded": 2900, "rss_kb": 1}}}
    assembly = {"middleware_config": {"footprint": {"processes": [{"peak_rss_kb": 9000}]}}}
    assert phases._footprint(jvm) is None
    assert phases._footprint(assembly)["processes"] == [{"peak_rss_kb": 9000}]
