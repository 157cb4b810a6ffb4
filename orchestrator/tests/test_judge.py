"""The verdict on a cell's result: the header must repeat the cell's own factors, and
samples the application timed, and a pinned thread that moved, are noted as such."""

import numpy as np
import pytest

from mwbench.judge import check_echoes, judge
from mwbench.matrix import Cell
from mwbench.resultfile import ResultFile, ResultFileError
from mwbench.store import CellRecord

LEVELS = {"experiment": "e", "driver": "rawtcp", "transport": "tcp", "mode": "remote",
          "operation": "octets", "payload_bytes": 64, "placement": "same-cpu",
          "idle_hold": True, "priority": 0, "servants": None, "threads": None,
          "subscribers": None, "subscriber_processes": None, "options": {"nodelay": "1"},
          "background": "none", "assembly": None, "load": None, "launch": 1}
HEADER = {"operation": "octets", "transport": "tcp", "payload_bytes": 64, "threads": 1,
          "servants": 1, "options": {"nodelay": "1"}, "sample_count": 0}


def cell(**levels) -> Cell:
    return Cell(levels={**LEVELS, **levels}, warmup=10, samples=100, launches=1, batch=1,
                timeout_s=60)


def test_a_header_that_repeats_the_cell_passes():
    check_echoes(cell(), HEADER)
    check_echoes(cell(threads=4, options={"nodelay": 0}),
                 {**HEADER, "threads": 4, "options": {"nodelay": "0"}})


@pytest.mark.parametrize("key, value, message", [
    ("payload_bytes", 32, "the result header says payload_bytes 32; the cell asked for 64"),
    ("operation", "roundtrip", "says operation 'roundtrip'; the cell asked for 'octets'"),
    ("transport", "uds", "says transport 'uds'"),
    ("threads", 2, "says threads 2; the cell asked for 1"),
    ("options", {}, "says options {}; the cell asked for {'nodelay': '1'}"),
])
def test_a_header_of_another_cell_is_refused(key, value, message):
    with pytest.raises(ResultFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_echoes(cell(), {**HEADER, key: value})


def test_keys_a_header_does_not_carry_are_not_asked_for():
    check_echoes(cell(), {"sample_count": 0})


def test_a_factor_passed_as_a_driver_option_is_echoed_among_the_options():
    deploy = cell(options={"plan": "basic_sp"}, assembly="static")
    check_echoes(deploy, {**HEADER, "options": {"plan": "basic_sp", "assembly": "static"}})
    with pytest.raises(ResultFileError, match="says options {'plan': 'basic_sp'}; the cell "
                                              "asked for {'plan': 'basic_sp', 'assembly'"):
        check_echoes(deploy, {**HEADER, "options": {"plan": "basic_sp"}})


@pytest.mark.parametrize("timed_by, noted", [("driver", True), (None, False)])
def test_samples_the_application_timed_are_noted(timed_by, noted):
    header = {**HEADER, "operation": "octets", "sample_count": 100, "batch_size": 1,
              "measured_wall_ns": 10**8, **({"timed_by": timed_by} if timed_by else {})}
    record = CellRecord(factors={}, status="running")
    judge(record, cell(), ResultFile(header=header, samples_ns=np.full(100, 1000)), None)
    assert record.status == "ok"
    assert any("timed_by: driver" in note for note in record.notes) == noted


@pytest.mark.parametrize("placement, requested, noted", [
    ("unpinned", None, False),  # moves by design: the report says once that cells ran unpinned
    ("same-cpu", 0, True),  # pinned, yet it moved: a placement that did not hold
])
def test_a_thread_that_moved_is_noted_only_when_it_was_pinned(placement, requested, noted):
    header = {**HEADER, "sample_count": 100, "batch_size": 1, "measured_wall_ns": 10**8,
              "process": {"cpu_requested": requested, "cpu_first": 0, "cpu_last": 1}}
    record = CellRecord(factors={}, status="running")
    judge(record, cell(placement=placement), ResultFile(header=header,
                                                        samples_ns=np.full(100, 1000)), None)
    assert any("moved from CPU 0 to 1" in note for note in record.notes) == noted
