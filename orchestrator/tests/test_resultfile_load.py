"""The result-file reader and an open loop's `load` header object (contract/vectors/
result-v1-open.txt): types, bounds and the counts' agreement, each refusal naming the file
and the field."""

import json

import pytest

from conftest import VECTORS
from mwbench.resultfile import ResultFileError, read_result_file


def with_load(tmp_path, **changes):
    """The open-loop vector with its `load` object changed (a None value removes a key)."""
    lines = (VECTORS / "result-v1-open.txt").read_text().splitlines()
    header = json.loads(lines[1])
    for key, value in changes.items():
        if value is None:
            header["load"].pop(key)
        else:
            header["load"][key] = value
    path = tmp_path / "open.txt"
    path.write_text("\n".join([lines[0], json.dumps(header, sort_keys=True), *lines[2:]]) + "\n")
    return path


def test_the_open_loop_vector_reads_back():
    result = read_result_file(VECTORS / "result-v1-open.txt")
    load = result.header["load"]
    assert load["calls"] - load["lost"] == len(result.samples_ns) == 4
    service = result.named_series["service_time"]
    lag = result.named_series["send_lag"]
    assert (result.samples_ns == service + lag).all()


def test_a_closed_loop_has_no_load():
    assert "load" not in read_result_file(VECTORS / "result-v1.txt").header


@pytest.mark.parametrize(("changes", "message"), [
    ({"kind": "bursty"}, r"load\.kind: Input should be 'constant' or 'poisson'"),
    ({"rate_per_s": 0}, r"load\.rate_per_s: Input should be greater than 0"),
    ({"rate_per_s": "fast"}, r"load\.rate_per_s: "),
    ({"calls": -1}, r"load\.calls: Input should be greater than or equal to 0"),
    ({"offered_per_s": -2.5}, r"load\.offered_per_s: Input should be greater than or equal"),
    ({"lost": 1.5}, r"load\.lost: Input should be a valid integer"),
    ({"seed": 2**64}, r"load\.seed: Input should be less than or equal to"),
    ({"late_sends": None}, r"load\.late_sends: Field required"),
])
def test_a_field_of_the_wrong_type_or_out_of_bounds_is_named(tmp_path, changes, message):
    with pytest.raises(ResultFileError, match=r"open\.txt:2: header: " + message):
        read_result_file(with_load(tmp_path, **changes))


@pytest.mark.parametrize(("changes", "message"), [
    ({"lost": 0}, r"load\.calls: 5 calls, 0 lost, but sample_count 4"),
    ({"calls": 6}, r"load\.calls: 6 calls, 1 lost, but sample_count 4"),
    ({"late_sends": 9}, r"load\.late_sends: 9 of 5 calls"),
    ({"outstanding_at_end": 0}, r"load\.lost: 1, but 0 outstanding_at_end"),
    ({"seed": None}, r"load\.seed: missing; a poisson schedule records its seed"),
])
def test_counts_that_disagree_are_refused(tmp_path, changes, message):
    with pytest.raises(ResultFileError, match=r"open\.txt:2: " + message):
        read_result_file(with_load(tmp_path, **changes))


def test_a_constant_load_needs_no_seed(tmp_path):
    result = read_result_file(with_load(tmp_path, kind="constant", seed=None))
    assert result.header["load"]["kind"] == "constant"
