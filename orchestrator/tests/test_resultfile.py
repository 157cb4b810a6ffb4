"""The result-file reader against the shared test vectors (contract/vectors/)."""

import json
from pathlib import Path

import numpy as np
import pytest

from conftest import VECTORS
from mwbench.named_series import MAX_NAMED_SERIES
from mwbench.resultfile import ResultFileError, read_result_file


@pytest.mark.parametrize("name", ["result-v1", "result-v1-server", "result-v1-series",
                                  "result-v1-named", "result-v1-open"])
def test_valid_vectors_parse_to_their_expected_content(name):
    expected = json.loads((VECTORS / f"{name}.expected.json").read_text())
    result = read_result_file(VECTORS / f"{name}.txt")
    assert result.header == expected["header"]
    assert result.samples_ns.tolist() == expected["samples"]
    assert result.samples_ns.dtype == np.int64
    named = expected.get("named_series", {})
    assert list(result.named_series) == list(named)  # in file order
    assert {name: values.tolist() for name, values in result.named_series.items()} == named
    assert all(values.dtype == np.int64 for values in result.named_series.values())


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


def test_named_series_keep_their_wholes_in_file_order():
    named = read_result_file(VECTORS / "result-v1-named.txt").named_series
    assert named.part_of == {"home_creation": "total", "library_load": "home_creation"}
    assert named.roots() == ["total"] and named.parts("total") == ["home_creation"]
    assert named.tree_order() == [("total", 0), ("home_creation", 1), ("library_load", 2)]


def with_named(tmp_path, entries, blocks, samples=(10, 11, 12)) -> Path:
    """A result of `samples` whose header lists `entries` as named_series and whose body
    has `blocks` (name, values) after the samples."""
    lines = (VECTORS / "result-v1.txt").read_text().splitlines()
    header = json.loads(lines[1])
    header.update(sample_count=len(samples), named_series=entries)
    body = [*map(str, samples)]
    for name, values in blocks:
        body += [f"series {name}", *map(str, values)]
    path = tmp_path / "named.txt"
    path.write_text("\n".join([lines[0], json.dumps(header, sort_keys=True), *body, "end"])
                    + "\n")
    return path


TOTAL = {"name": "total", "count": 3}
PART = {"name": "part", "count": 3, "part_of": "total"}
GOOD = [("total", [5, 6, 7]), ("part", [1, 2, 3])]


def test_a_valid_named_result_reads_back(tmp_path):
    result = read_result_file(with_named(tmp_path, [TOTAL, PART], GOOD))
    assert result.samples_ns.tolist() == [10, 11, 12]
    assert {k: v.tolist() for k, v in result.named_series.items()} == dict(GOOD)
    assert result.named_series.part_of == {"part": "total"}


def test_a_series_of_another_count_is_refused(tmp_path):
    path = with_named(tmp_path, [TOTAL, {**PART, "count": 2}], [GOOD[0], ("part", [1, 2])])
    with pytest.raises(ResultFileError, match=r"named\.txt:2: named_series\.1\.count: 2; "
                                              r"sample_count is 3"):
        read_result_file(path)


def test_a_part_of_an_unknown_series_is_refused(tmp_path):
    path = with_named(tmp_path, [TOTAL, {**PART, "part_of": "whole"}], GOOD)
    with pytest.raises(ResultFileError, match=r":2: named_series\.1\.part_of: 'whole' is not "
                                              r"the name of a series of this file"):
        read_result_file(path)


@pytest.mark.parametrize("entries, message", [
    ([{**TOTAL, "part_of": "part"}, PART],
     r":2: named_series\.0\.part_of: 'total' is part of 'part' is part of 'total': a series "
     r"cannot be, directly or not, a part of itself"),
    ([TOTAL, {**PART, "part_of": "part"}], r":2: named_series\.1\.part_of: 'part' is part of "
                                          r"'part'"),
])
def test_a_series_that_is_part_of_itself_is_refused(tmp_path, entries, message):
    with pytest.raises(ResultFileError, match=message):
        read_result_file(with_named(tmp_path, entries, GOOD))


@pytest.mark.parametrize("name, message", [
    ("total", r":2: named_series\.1\.name: 'total' is also the name of named_series\.0; "
              r"names are unique"),
    ("Part", r":2: header: named_series\.1\.name: String should match pattern"),
    ("2part", r":2: header: named_series\.1\.name: String should match pattern"),
    ("p" * 65, r":2: header: named_series\.1\.name: String should have at most 64 characters"),
])
def test_a_duplicate_or_bad_name_is_refused(tmp_path, name, message):
    path = with_named(tmp_path, [TOTAL, {**PART, "name": name}], [GOOD[0], (name, [1, 2, 3])])
    with pytest.raises(ResultFileError, match=message):
        read_result_file(path)


@pytest.mark.parametrize("blocks, message", [
    ([GOOD[1], GOOD[0]], r"named\.txt:6: named_series\.0\.name: the block is 'series part'; "
                         r"the header lists 'total' there"),
    ([GOOD[0], ("other", [1, 2, 3])], r":10: named_series\.1\.name: the block is 'series "
                                      r"other'; the header lists 'part' there"),
    ([*GOOD, ("extra", [1, 2, 3])], r":14: named_series: a block 'extra' beyond the 2 series "
                                    r"the header announces"),
])
def test_blocks_in_another_name_or_order_are_refused(tmp_path, blocks, message):
    with pytest.raises(ResultFileError, match=message):
        read_result_file(with_named(tmp_path, [TOTAL, PART], blocks))


@pytest.mark.parametrize("blocks, message", [
    ([GOOD[0], ("part", [1, 2])], r":10: series 'part': the header announces 3 values \(its "
                                  r"sample_count\) but the block holds 2"),
    ([GOOD[0]], r":10: named_series: the header announces 2 series but the file holds 1 "
                r"blocks before 'end' \(missing: part\)"),
    ([], r":6: named_series: the header announces 2 series but the file holds 0 blocks"),
])
def test_missing_values_or_blocks_are_refused(tmp_path, blocks, message):
    with pytest.raises(ResultFileError, match=message):
        read_result_file(with_named(tmp_path, [TOTAL, PART], blocks))


@pytest.mark.parametrize("value, message", [
    ("2.5", r":12: series 'part': a value is not a non-negative integer"),
    ("-1", r":12: series 'part': a value is not a non-negative integer"),
    ("", r":12: series 'part': a value is empty or has more than 18 digits"),
    ("1" * 19, r":12: series 'part': a value is empty or has more than 18 digits"),
])
def test_a_value_that_is_not_an_integer_is_refused(tmp_path, value, message):
    path = with_named(tmp_path, [TOTAL, PART], [GOOD[0], ("part", [1, value, 3])])
    with pytest.raises(ResultFileError, match=message):
        read_result_file(path)


def test_more_series_than_the_bound_are_refused_before_any_block_is_read(tmp_path):
    entries = [{"name": f"s{index}", "count": 1} for index in range(MAX_NAMED_SERIES + 1)]
    path = with_named(tmp_path, entries, [], samples=(1,))
    with pytest.raises(ResultFileError, match=rf":2: header: named_series: List should have "
                                              rf"at most {MAX_NAMED_SERIES} items"):
        read_result_file(path)


def test_the_bound_itself_is_accepted(tmp_path):
    entries = [{"name": f"s{index}", "count": 1} for index in range(MAX_NAMED_SERIES)]
    blocks = [(entry["name"], [index]) for index, entry in enumerate(entries)]
    result = read_result_file(with_named(tmp_path, entries, blocks, samples=(1,)), max_samples=1)
    assert len(result.named_series) == MAX_NAMED_SERIES
    assert result.named_series[f"s{MAX_NAMED_SERIES - 1}"].tolist() == [MAX_NAMED_SERIES - 1]


def test_series_blocks_without_a_header_entry_are_extra_lines(tmp_path):
    path = with_named(tmp_path, [], GOOD)
    with pytest.raises(ResultFileError, match="header announces 3 samples but the file holds 11"):
        read_result_file(path)
