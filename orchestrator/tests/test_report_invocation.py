"""The report's invocation section (OCB's Figure 1) on a stored run of known times.

Every mode of omniORB's client against both skeletons, two launches each,
stored directly (conftest.store_cells) with medians chosen so that every
ratio is known on paper (µs):

    round trip  static 20, dii 22, ami_callback 24, ami_poller 25   (dsi: + 2)
    delivery    static 8,  dii 9,  ami_callback 10, ami_poller 10   (dsi: + 1)
    oneway      its samples are its deliveries: 6 (dsi: 7); no round trip

The ami_poller cells ran without the option delivery_time=1: no `delivery` series.
"""

import re

import numpy as np
import pytest

from conftest import page_text, stored_report
from mwbench.named_series import NamedSeries
from mwbench.report.factors import invocation

ROUND_TRIP = {"static": 20, "dii": 22, "ami_callback": 24, "ami_poller": 25}
DELIVERY = {"static": 8, "dii": 9, "ami_callback": 10, "oneway": 6}


def around(median_us: float, count: int = 11) -> np.ndarray:
    """Samples (ns) whose median is `median_us`, a microsecond either side at the ends."""
    m = int(median_us * 1000)
    return np.array([m - 1000] + [m] * (count - 2) + [m + 1000], dtype=np.int64)


def invocation_cells() -> list[dict]:
    cells = []
    for dispatch, slower in (("static", 0), ("dsi", 1)):
        for mode in ("static", "dii", "ami_callback", "ami_poller", "oneway"):
            for launch in (1, 2):
                cell = {"experiment": "invocation", "operation": "ping", "launch": launch,
                        "invocation": mode, "dispatch": dispatch, "options": {"delivery_time": 1}}
                if mode == "oneway":
                    cell["samples_ns"] = around(DELIVERY[mode] + slower)
                    cell["measurer_header"] = {"timed_by": "driver"}
                else:
                    cell["samples_ns"] = around(ROUND_TRIP[mode] + 2 * slower)
                if mode in ("static", "dii", "ami_callback"):
                    cell["named_series"] = NamedSeries(
                        {"delivery": around(DELIVERY[mode] + slower)})
                cells.append(cell)
    # The raw socket's round trip: the baseline of every mode but oneway (its samples are
    # one-way times).
    cells += [{"experiment": "raw", "driver": "rawtcp", "operation": "ping",
               "launch": launch, "samples_ns": around(10)} for launch in (1, 2)]
    return cells


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    """The run as the report reads it, and its page."""
    return stored_report(tmp_path_factory.mktemp("invocation") / "m.db", invocation_cells())


def test_a_panel_per_dispatch_with_the_modes_in_the_papers_order(known):
    run, _ = known
    panels = invocation.series(run)
    assert [p["configuration"] for p in panels] == ["static dispatch", "dsi dispatch"]
    for panel in panels:
        assert [m["invocation"] for m in panel["modes"]] == [
            "static", "dii", "ami_callback", "ami_poller", "oneway"]


def test_round_trip_and_delivery_of_each_mode_with_ratios_to_static(known):
    run, _ = known
    static, dsi = invocation.series(run)
    modes = {m["invocation"]: m for m in static["modes"]}
    assert modes["dii"]["round_trip"]["p50"].value == pytest.approx(22)
    assert modes["dii"]["round_trip_ratio"].value == pytest.approx(1.1)
    assert modes["dii"]["delivery"]["p50"].value == pytest.approx(9)
    assert modes["dii"]["delivery_ratio"].value == pytest.approx(9 / 8)
    assert modes["static"]["round_trip_ratio"] is None  # the reference itself
    # Without delivery_time=1 a mode has its round trip alone; a oneway call, its delivery alone.
    assert modes["ami_poller"]["delivery"] is None
    assert modes["oneway"]["round_trip"] is None
    assert modes["oneway"]["delivery"]["p50"].value == pytest.approx(6)
    assert modes["oneway"]["delivery_ratio"].value == pytest.approx(6 / 8)
    # The DSI is read against the static skeleton's static invocation.
    dsi_modes = {m["invocation"]: m for m in dsi["modes"]}
    assert dsi_modes["static"]["round_trip_ratio"].value == pytest.approx(22 / 20)
    assert dsi_modes["oneway"]["delivery_ratio"].value == pytest.approx(7 / 8)


def test_the_report_has_the_figure_and_the_table(known):
    _, page = known
    assert 'id="run1-invocation-modes"' in page
    figure = page[page.index('id="run1-invocation-modes"'):]
    assert "<svg" in figure[:figure.index("</figure>")]
    table = page_text(page[page.index('id="run1-invocation-table"'):])
    # Each row: the median [interval], p99, ÷ static [interval], of round trip then delivery.
    row = table[table.index("static dispatch dii"):table.index("static dispatch ami_callback")]
    assert re.fullmatch(r"static dispatch dii 22\.000 \[\S+\] 22\.900 1\.100 \[\S+\] "
                        r"9\.000 \[\S+\] 9\.900 1\.125 \[\S+\] 2 invocation ", row), row
    row = table[table.index("static dispatch oneway"):table.index("dsi dispatch static")]
    assert re.fullmatch(r"static dispatch oneway – – – 6\.000 \[\S+\] 6\.900 0\.750 \[\S+\] "
                        r"2 invocation ", row), row


def test_a_run_without_invocation_modes_has_no_such_section(tmp_path):
    cells = [{"samples_ns": around(20), "launch": k} for k in (1, 2)]
    run, page = stored_report(tmp_path / "m.db", cells)
    assert invocation.series(run) == []
    assert "run1-invocation" not in page


def test_a_oneway_delivery_is_not_read_against_the_raw_round_trip(known):
    _, page = known
    table = page[page.index('id="run1-baseline"'):]
    rows = [page_text(row) for row in table[:table.index("</table>")].split("<tr>")[2:]]
    assert len(rows) == 9  # the raw socket and the 8 two-way configurations
    assert not [row for row in rows if "oneway" in row]
    static = next(row for row in rows if "static invocation static dispatch" in row)
    assert " 2.00 " in static  # 20 µs over the raw socket's 10
