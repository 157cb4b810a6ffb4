"""The result-file reader against the shared test vectors (contract/vectors/)."""

import json

import numpy as np
import pytest

from conftest import VECTORS
from mwbench.resultfile import ResultFileError, read_result_file


@pytest.mark.parametrize("name", ["result-v1", "result-v1-server"])
def test_valid_vectors_parse_to_their_expected_content(name):
    expected = json.loads((VECTORS / f"{name}.expected.json").read_text())
    result = read_result_file(VECTORS / f"{name}.txt")
    assert result.header == expected["header"]
    assert result.samples_ns.tolist() == expected["samples"]
    assert result.samples_ns.dtype == np.int64


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
