"""The result-file reader against the shared test vectors (contract/vectors/)."""

import json

import numpy as np
import pytest

from conftest import VECTORS
from mwbench.resultfile import ResultFileError, read_result_file


@pytest.mark.parametrize("name", ["result-v1", "result-v1-server", "result-v1-series"])
def test_valid_vectors_parse_to_their_expected_content(name):
    expected = json.loads((VECTORS / f"{name}.expected.json").read_text())
    result = read_result_file(VECTORS / f"{name}.txt")
    assert result.header == expected["header"]
    assert result.samples_ns.tolist() == expected["samples"]
    assert result.samples_ns.dtype == np.int64


def test_series_vector_splits_into_its_threads_samples():
    result = read_result_file(VECTORS / "result-v1-series.txt")
    assert [s.tolist() for s in result.per_series_ns()] == [[4512, 4480, 5120], [4399, 6200]]


def test_per_call_times_divide_by_the_batch_size(tmp_path):
    text = (VECTORS / "result-v1.txt").read_text().replace('"batch_size":1', '"batch_size":4')
    path = tmp_path / "batched.txt"
    path.write_text(text)
    result = read_result_file(path)
    assert result.per_call_ns().tolist() == [s / 4 for s in result.samples_ns.tolist()]


def test_truncated_file_is_refused_with_its_name():
    with pytest.raises(ResultFileError, match=r"truncated-v1\.txt: truncated"):
        read_result_file(VECTORS / "truncated-v1.txt")


def test_unknown_major_version_is_refused_naming_the_version():
    with pytest.raises(ResultFileError, match=r"future-v9\.txt: result format version '9'"):
        read_result_file(VECTORS / "future-v9.txt")


def test_sample_count_must_match_the_header(tmp_path):
    lines = (VECTORS / "result-v1.txt").read_text().splitlines()
    path = tmp_path / "short.txt"
    path.write_text("\n".join(lines[:3] + ["end"]) + "\n")
    with pytest.raises(ResultFileError, match="announces 5 samples but the file holds 1"):
        read_result_file(path)


def test_missing_file_says_no_result_was_written(tmp_path):
    with pytest.raises(ResultFileError, match="no result file was written"):
        read_result_file(tmp_path / "absent.txt")


def with_series(tmp_path, series, samples):
    lines = (VECTORS / "result-v1.txt").read_text().splitlines()
    header = json.loads(lines[1])
    header.update(sample_count=len(samples), threads=len(series), series=series)
    path = tmp_path / "threads.txt"
    path.write_text("\n".join([lines[0], json.dumps(header, sort_keys=True),
                               *map(str, samples), "end"]) + "\n")
    return path


def test_series_split_the_samples_by_thread(tmp_path):
    series = [{"name": "thread-1", "count": 2, "wall_ns": 900},
              {"name": "thread-2", "count": 3, "wall_ns": 1000}]
    result = read_result_file(with_series(tmp_path, series, [10, 11, 20, 21, 22]))
    assert [(s.name, s.count, s.wall_ns) for s in result.series] == [
        ("thread-1", 2, 900), ("thread-2", 3, 1000)]
    assert [part.tolist() for part in result.per_series_ns()] == [[10, 11], [20, 21, 22]]
    assert result.samples_ns.tolist() == [10, 11, 20, 21, 22]  # statistics pool them


def test_without_series_all_samples_are_one():
    result = read_result_file(VECTORS / "result-v1.txt")
    (only,) = result.series
    assert only.count == result.samples_ns.size
    assert only.wall_ns == result.header["measured_wall_ns"]


@pytest.mark.parametrize("series, message", [
    ([{"name": "thread-1", "count": 2}, {"name": "thread-2", "count": 2}],
     "the series hold 4 samples but 'sample_count' is 5"),
    ([], "series: List should have at least 1 item"),
    ([{"name": "thread-1", "count": -5}], "series.0.count: Input should be greater than or "
                                          "equal to 0 .found -5."),
])
def test_series_that_do_not_add_up_are_refused(tmp_path, series, message):
    with pytest.raises(ResultFileError, match=message):
        read_result_file(with_series(tmp_path, series, [1, 2, 3, 4, 5]))
