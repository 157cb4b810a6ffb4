"""The orchestrator's side of a fan-out (docs/driver-contract-fanout.md): the subscriber
processes' headers read as one server's, and a cell in which a subscriber missed an
event fails instead of becoming a figure."""

import pytest

from mwbench.cell_processes import combine_subscriber_headers
from mwbench.judge import _check_deliveries
from mwbench.resultfile import ResultFileError


def subscriber_header(first, counts, switches):
    return {"role": "server", "fanout": {"subscribers": len(counts), "first_subscriber": first,
                                         "events_received": counts},
            "rusage": {"voluntary_switches": switches, "involuntary_switches": 1,
                       "user_us": 10, "system_us": 20, "max_rss_kb": 1000 + first}}


PUBLISHER = {"fanout": {"subscribers": 3, "subscriber_processes": 3, "events_published": 50}}


def test_subscriber_processes_read_as_one_server():
    headers = [subscriber_header(i, [50], 100 * (i + 1)) for i in range(3)]
    combined = combine_subscriber_headers(headers)
    assert combined["fanout"] == {"subscribers": 3, "first_subscriber": 0,
                                  "events_received": [50, 50, 50]}
    assert combined["rusage"] == {"voluntary_switches": 600, "involuntary_switches": 3,
                                  "user_us": 30, "system_us": 60, "max_rss_kb": 1002}
    assert combined["processes"] == headers
    _check_deliveries(PUBLISHER, combined, 3)  # all received all


def test_one_subscriber_process_is_its_own_header():
    header = subscriber_header(0, [50, 50, 50], 7)
    assert combine_subscriber_headers([header]) is header


def test_a_process_without_a_result_leaves_the_counts_unknown():
    assert combine_subscriber_headers([subscriber_header(0, [50], 1), None]) is None
    with pytest.raises(ResultFileError, match="wrote no result with fanout counts"):
        _check_deliveries(PUBLISHER, None, 3)


@pytest.mark.parametrize("counts, fragment", [
    ([50, 49, 50], "1 of 3 subscribers did not receive every one of the 50 events published "
                   "(subscriber 1: 49)"),
    ([50, 51, 50], "(subscriber 1: 51)"),
    ([50, 50], "2 subscribers counted their events; the cell has 3"),
])
def test_a_lost_or_duplicated_event_fails_the_cell(counts, fragment):
    with pytest.raises(ResultFileError) as error:
        _check_deliveries(PUBLISHER, subscriber_header(0, counts, 1), 3)
    assert fragment in str(error.value)


def test_a_publisher_without_counts_fails_the_cell():
    with pytest.raises(ResultFileError, match="publisher's result has no fanout counts"):
        _check_deliveries({}, subscriber_header(0, [50, 50, 50], 1), 3)
