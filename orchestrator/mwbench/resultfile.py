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
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from .bounded_input import InputError, decode_utf8, read_bytes

MAGIC = "mwbench-result"
SUPPORTED_VERSION = 1
# A header is one line of JSON; a fan-out's counts or a thousand threads' series are
# tens of KiB.
MAX_HEADER_BYTES = 1 << 20
# A sample is below 10^18 ns (31 years): at most 18 digits, so none overflows int64.
MAX_SAMPLE_DIGITS = 18
# A reader that is not told how many samples to expect takes at most this many.
DEFAULT_MAX_SAMPLES = 100_000_000


class ResultFileError(Exception):
    """A result file that cannot be trusted; the message names the file."""


Count = Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]


class _Open(BaseModel):
    """A header object: the keys mwbench reads are checked, others are kept unread."""

    model_config = ConfigDict(extra="allow", strict=True)


class _Clock(_Open):
    read_cost_ns: Annotated[float, Field(ge=0, allow_inf_nan=False, strict=False)] | None = None
    resolution_ns: Annotated[float, Field(ge=0, allow_inf_nan=False, strict=False)] | None = None


class _Usage(_Open):
    voluntary_switches: Count
    involuntary_switches: Count
    user_us: Count
    system_us: Count
    max_rss_kb: Annotated[StrictInt, Field(ge=-1, le=2**63 - 1)]


class _Process(_Open):
    cpu_first: StrictInt | None = None
    cpu_last: StrictInt | None = None


class _Series(_Open):
    name: str
    count: Count
    wall_ns: Count = 0


class _Fanout(_Open):
    subscribers: Annotated[StrictInt, Field(ge=1, le=2**31)]
    first_subscriber: Count | None = None
    events_published: Count | None = None
    events_received: Annotated[list[Count], Field(max_length=2**16)] | None = None


class _Header(_Open):
    """The keys of the contract's header table (section 4) that mwbench computes with."""

    contract: Literal[1]
    sample_count: Count
    batch_size: Annotated[StrictInt, Field(ge=1, le=2**40)]
    measured_wall_ns: Count
    warmup: Count
    threads: Annotated[StrictInt, Field(ge=1)] | None = None
    clock: _Clock | None = None
    rusage: _Usage | None = None
    process: _Process | None = None
    series: Annotated[list[_Series], Field(min_length=1)] | None = None
    fanout: _Fanout | None = None
    injected_delay_ns: Count | None = None


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


def read_result_file(path: Path, max_samples: int = DEFAULT_MAX_SAMPLES) -> ResultFile:
    """Read and check a result file that holds at most `max_samples` samples (what the
    cell asked for): no file can make the reader use more memory than that needs."""
    path = Path(path)
    if not os.path.lexists(path):
        raise ResultFileError(f"{path}: no result file was written")
    limit = len(MAGIC) + 16 + MAX_HEADER_BYTES + max_samples * (MAX_SAMPLE_DIGITS + 1) + 8
    try:
        data = read_bytes(path, limit, "result file")
    except InputError as error:
        raise ResultFileError(f"{error} (the cell asked for at most {max_samples:,} "
                              "samples)" if "bytes" in str(error) else str(error)) from None
    first, _, rest = data.partition(b"\n")
    magic, _, version = first.decode("utf-8", errors="replace").partition(" ")
    if magic != MAGIC:
        raise ResultFileError(f"{path}: not a result file (first line {first[:40]!r})")
    if version != str(SUPPORTED_VERSION):
        raise ResultFileError(
            f"{path}: result format version {version[:20]!r}; this mwbench reads version "
            f"{SUPPORTED_VERSION}"
        )
    header_line, newline, body = rest.partition(b"\n")
    if not newline or not body:
        raise ResultFileError(f"{path}: truncated (no header or no 'end' line)")
    header = _parse_header(path, header_line)
    expected = header["sample_count"]
    if expected > max_samples:
        raise ResultFileError(f"{path}:2: sample_count: {expected:,} samples; the cell asked "
                              f"for at most {max_samples:,}")
    if body != b"end\n" and not body.endswith(b"\nend\n") and body != b"end" \
            and not body.endswith(b"\nend"):
        raise ResultFileError(f"{path}: truncated (no 'end' line)")
    samples = _parse_samples(path, body[:body.rindex(b"end")], expected)
    _check_series(path, header, expected)
    return ResultFile(header=header, samples_ns=samples)


def _parse_header(path: Path, line: bytes) -> dict:
    if len(line) > MAX_HEADER_BYTES:
        raise ResultFileError(f"{path}:2: the header has more than {MAX_HEADER_BYTES:,} bytes")
    try:
        header = json.loads(decode_utf8(line, path, first_line=2))
    except InputError as error:
        raise ResultFileError(str(error)) from None
    except (json.JSONDecodeError, RecursionError) as error:
        raise ResultFileError(f"{path}:2: header is not valid JSON: {error}") from None
    if not isinstance(header, dict):
        raise ResultFileError(f"{path}:2: the header is not a JSON object")
    try:
        _Header.model_validate(header)
    except ValidationError as error:
        problems = [f"{'.'.join(map(str, item['loc'])) or 'header'}: {item['msg']}"
                    f" (found {_shown(item.get('input'))})" for item in error.errors()]
        raise ResultFileError(f"{path}:2: header: {'; '.join(problems[:3])}") from None
    return header


def _parse_samples(path: Path, text: bytes, expected: int) -> np.ndarray:
    """`expected` lines of at most MAX_SAMPLE_DIGITS digits, as int64 (fast: numpy)."""
    found = text.count(b"\n")
    if found != expected:
        raise ResultFileError(
            f"{path}: header announces {expected} samples but the file holds {found}"
        )
    if not expected:
        return np.empty(0, dtype=np.int64)
    codes = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(codes == ord("\n"))
    lengths = np.diff(ends, prepend=-1) - 1
    bad = np.flatnonzero((codes != ord("\n")) & ((codes < ord("0")) | (codes > ord("9"))))
    if bad.size:
        line = 3 + int(np.searchsorted(ends, bad[0]))
        raise ResultFileError(f"{path}:{line}: a sample is not a non-negative integer")
    if lengths.min() == 0 or lengths.max() > MAX_SAMPLE_DIGITS:
        index = int(np.flatnonzero((lengths == 0) | (lengths > MAX_SAMPLE_DIGITS))[0])
        raise ResultFileError(f"{path}:{3 + index}: a sample is empty or has more than "
                              f"{MAX_SAMPLE_DIGITS} digits (10^18 ns is 31 years)")
    samples = np.fromstring(text, dtype=np.int64, sep="\n")  # digits and lengths checked above
    if samples.size != expected:
        raise ResultFileError(f"{path}: {samples.size} of {expected} samples could be read")
    return samples


def _shown(value) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
    total = sum(s["count"] for s in series)
    if total != sample_count:
        raise ResultFileError(f"{path}: the series hold {total} samples but 'sample_count' "
                              f"is {sample_count}")
