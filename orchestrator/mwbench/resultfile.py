"""Reader of the result files that drivers write (docs/driver-contract.md, section 4).

The format is pinned by the test vectors in contract/vectors/. A file that is
cut short, of another major version, or inconsistent with its own header is
refused with a message naming the file, so a cell fails with a reason instead
of storing half a measurement.

With several client threads the samples come series by series, one series
per thread, as the header's `series` lists them. Statistics pool them (every
call is a call some thread waited for), the per-thread counts stay in the
header, which the store keeps, and `per_series_ns` splits them again for
anyone who asks how evenly the threads were served.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = "mwbench-result"
SUPPORTED_VERSION = 1


class ResultFileError(Exception):
    """A result file that cannot be trusted; the message names the file."""


@dataclass(frozen=True)
class Series:
    name: str
    count: int
    wall_ns: int


@dataclass(frozen=True)
class ResultFile:
    header: dict
    samples_ns: np.ndarray  # int64, one element per sample, as written

    @property
    def batch_size(self) -> int:
        return int(self.header.get("batch_size", 1))

    @property
    def series(self) -> list[Series]:
        """The threads' series in file order; one series of everything without `series`."""
        return header_series(self.header)

    def per_series_ns(self) -> list[np.ndarray]:
        """The samples split by series (views, in file order)."""
        return split_series(self.samples_ns, self.series)

    def per_call_ns(self) -> np.ndarray:
        """Samples divided by the batch size: the time of one call, in ns."""
        return self.samples_ns.astype(np.float64) / self.batch_size


def read_result_file(path: Path) -> ResultFile:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultFileError(f"{path}: no result file was written") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise ResultFileError(f"{path}: empty result file")

    magic, _, version = lines[0].partition(" ")
    if magic != MAGIC:
        raise ResultFileError(f"{path}: not a result file (first line {lines[0][:40]!r})")
    if version != str(SUPPORTED_VERSION):
        raise ResultFileError(
            f"{path}: result format version {version!r}; this mwbench reads version "
            f"{SUPPORTED_VERSION}"
        )
    if len(lines) < 3:
        raise ResultFileError(f"{path}: truncated (no header or no 'end' line)")
    try:
        header = json.loads(lines[1])
    except json.JSONDecodeError as error:
        raise ResultFileError(f"{path}: header is not valid JSON: {error}") from None
    if not isinstance(header, dict) or "sample_count" not in header:
        raise ResultFileError(f"{path}: header has no 'sample_count'")

    if lines[-1] != "end":
        raise ResultFileError(f"{path}: truncated (no 'end' line)")
    body = lines[2:-1]
    expected = int(header["sample_count"])
    if len(body) != expected:
        raise ResultFileError(
            f"{path}: header announces {expected} samples but the file holds {len(body)}"
        )
    try:
        samples = np.array(body, dtype=np.int64) if body else np.empty(0, dtype=np.int64)
    except ValueError:
        raise ResultFileError(f"{path}: a sample is not an integer") from None
    if samples.size and samples.min() < 0:
        raise ResultFileError(f"{path}: negative sample")
    _check_series(path, header, expected)
    return ResultFile(header=header, samples_ns=samples)


def header_series(header: dict) -> list[Series]:
    """The series a (stored or fresh) header announces."""
    if "series" not in header:
        return [Series("all", int(header.get("sample_count", 0)),
                       int(header.get("measured_wall_ns", 0)))]
    return [Series(str(s["name"]), int(s["count"]), int(s.get("wall_ns", 0)))
            for s in header["series"]]


def split_series(samples: np.ndarray, series: list[Series]) -> list[np.ndarray]:
    bounds = np.cumsum([s.count for s in series])[:-1]
    return np.split(samples, bounds)


def _check_series(path: Path, header: dict, sample_count: int) -> None:
    series = header.get("series")
    if series is None:
        return
    if not isinstance(series, list) or not series or not all(
            isinstance(s, dict) and isinstance(s.get("count"), int) and s["count"] >= 0
            and "name" in s for s in series):
        raise ResultFileError(f"{path}: 'series' must be a non-empty list of objects with a "
                              "name and a non-negative count")
    total = sum(s["count"] for s in series)
    if total != sample_count:
        raise ResultFileError(f"{path}: the series hold {total} samples but 'sample_count' "
                              f"is {sample_count}")
