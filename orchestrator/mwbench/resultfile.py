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

Named series (the parts a driver timed inside each sample, such as the
phases of one assembly; named_series.py) follow the samples, a block each
behind its `series NAME` line. Their header entries, names, counts and
`part_of` links are checked before any block is read, and at most
MAX_NAMED_SERIES of them are accepted, so that a file may hold at most that
many times the values its cell asked for.
"""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from .bounded_input import InputError, decode_utf8, read_bytes
from .named_series import (
    MAX_NAME_LENGTH,
    MAX_NAMED_SERIES,
    NAME_PATTERN,
    NamedSeries,
    cycle_through,
)

MAGIC = "mwbench-result"
SUPPORTED_VERSION = 1
# A header is one line of JSON; a fan-out's counts or a thousand threads' series are
# tens of KiB.
MAX_HEADER_BYTES = 1 << 20
# A sample is below 10^18 ns (31 years): at most 18 digits, so none overflows int64.
MAX_SAMPLE_DIGITS = 18
# A reader that is not told how many samples to expect takes at most this many.
DEFAULT_MAX_SAMPLES = 100_000_000
BLOCK_MARKER = b"series "  # the line that opens a named series' block: `series NAME`


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


Rate = Annotated[float, Field(ge=0, allow_inf_nan=False, strict=False)]


class _Load(_Open):
    """An open loop's `load` object (docs/driver-contract-open-loop.md)."""

    kind: Literal["constant", "poisson"]
    rate_per_s: Annotated[float, Field(gt=0, allow_inf_nan=False, strict=False)]
    seed: Annotated[StrictInt, Field(ge=0, le=2**64 - 1)] | None = None
    calls: Count
    offered_per_s: Rate
    achieved_per_s: Rate
    late_sends: Count
    late_threshold_ns: Count
    max_send_lag_ns: Count
    outstanding_at_end: Count
    lost: Count
    # The sender's spin margin and its calibration (absent from older files).
    spin_margin_ns: Count | None = None
    calibration_sleeps: Count | None = None
    calibration_lateness_p90_ns: Count | None = None


SeriesName = Annotated[str, Field(pattern=f"^{NAME_PATTERN}$", max_length=MAX_NAME_LENGTH)]


class _NamedSeries(_Open):
    name: SeriesName
    count: Count
    part_of: str | None = None


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
    named_series: Annotated[list[_NamedSeries], Field(max_length=MAX_NAMED_SERIES)] | None = None
    load: _Load | None = None


@dataclass(frozen=True)
class Series:
    name: str
    count: int
    wall_ns: int


@dataclass(frozen=True)
class ResultFile:
    header: dict
    samples_ns: np.ndarray  # int64, one element per sample, as written
    # name -> int64 values, one per sample, in file order, with their `part_of`.
    named_series: NamedSeries = field(default_factory=NamedSeries)

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
    # The samples, and as many values again for each named series, each behind its line.
    values = max_samples * (1 + MAX_NAMED_SERIES)
    blocks = MAX_NAMED_SERIES * (len(BLOCK_MARKER) + MAX_NAME_LENGTH + 1)
    limit = len(MAGIC) + 16 + MAX_HEADER_BYTES + values * (MAX_SAMPLE_DIGITS + 1) + blocks + 8
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
    text = body[:body.rindex(b"end")]
    _check_series(path, header, expected)
    _check_load(path, header, expected)
    entries = header.get("named_series")
    if not entries:
        return ResultFile(header=header, samples_ns=_parse_samples(path, text, expected))
    _check_named_series(path, entries, expected)
    samples, named = _parse_blocks(path, text, entries, expected)
    return ResultFile(header=header, samples_ns=samples, named_series=named)


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


def _parse_samples(path: Path, text: bytes, expected: int, first_line: int = 3,
                   block: str | None = None) -> np.ndarray:
    """`expected` lines of at most MAX_SAMPLE_DIGITS digits, as int64 (fast: numpy), the
    first of them line `first_line` of the file: the samples, or the values of the named
    series `block` (its `series NAME` line is the line before)."""
    found = text.count(b"\n")
    if found != expected:
        raise ResultFileError(
            f"{path}: header announces {expected} samples but the file holds {found}"
            if block is None else
            f"{path}:{first_line - 1}: series {block}: the header announces {expected} "
            f"values (its sample_count) but the block holds {found}")
    if not expected:
        return np.empty(0, dtype=np.int64)
    codes = np.frombuffer(text, dtype=np.uint8)
    ends = np.flatnonzero(codes == ord("\n"))
    lengths = np.diff(ends, prepend=-1) - 1
    bad = np.flatnonzero((codes != ord("\n")) & ((codes < ord("0")) | (codes > ord("9"))))
    value = "a sample" if block is None else f"series {block}: a value"
    if bad.size:
        line = first_line + int(np.searchsorted(ends, bad[0]))
        raise ResultFileError(f"{path}:{line}: {value} is not a non-negative integer")
    if lengths.min() == 0 or lengths.max() > MAX_SAMPLE_DIGITS:
        index = int(np.flatnonzero((lengths == 0) | (lengths > MAX_SAMPLE_DIGITS))[0])
        raise ResultFileError(f"{path}:{first_line + index}: {value} is empty or has more "
                              f"than {MAX_SAMPLE_DIGITS} digits (10^18 ns is 31 years)")
    samples = np.fromstring(text, dtype=np.int64, sep="\n")  # digits and lengths checked above
    if samples.size != expected:
        raise ResultFileError(f"{path}: {samples.size} of {expected} values could be read")
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


def _check_load(path: Path, header: dict, sample_count: int) -> None:
    """An open loop's counts agree with each other and with the samples: one sample per
    answered call (calls - lost), a seed for a Poisson schedule."""
    load = header.get("load")
    if load is None:
        return
    where = f"{path}:2: load"
    for key in ("lost", "late_sends", "outstanding_at_end"):
        if load[key] > load["calls"]:
            raise ResultFileError(f"{where}.{key}: {load[key]} of {load['calls']} calls")
    if load["lost"] > load["outstanding_at_end"]:
        raise ResultFileError(f"{where}.lost: {load['lost']}, but {load['outstanding_at_end']} "
                              "outstanding_at_end (a lost call was outstanding at the last send)")
    if load["calls"] - load["lost"] != sample_count:
        raise ResultFileError(f"{where}.calls: {load['calls']} calls, {load['lost']} lost, but "
                              f"sample_count {sample_count} (one sample per answered call)")
    if load["kind"] == "poisson" and load.get("seed") is None:
        raise ResultFileError(f"{where}.seed: missing; a poisson schedule records its seed")


def _check_named_series(path: Path, entries: list[dict], sample_count: int) -> None:
    """The header's named series (types checked by _Header): unique names, one value per
    sample each, and `part_of` links that name another series and never loop."""
    names: dict[str, int] = {}
    for index, entry in enumerate(entries):
        where = f"{path}:2: named_series.{index}"
        if entry["name"] in names:
            raise ResultFileError(f"{where}.name: {entry['name']!r} is also the name of "
                                  f"named_series.{names[entry['name']]}; names are unique")
        names[entry["name"]] = index
        if entry["count"] != sample_count:
            raise ResultFileError(f"{where}.count: {entry['count']}; sample_count is "
                                  f"{sample_count} (a series has one value per sample)")
    part_of = {e["name"]: e["part_of"] for e in entries if e.get("part_of") is not None}
    for index, entry in enumerate(entries):
        whole = entry.get("part_of")
        if whole is None:
            continue
        where = f"{path}:2: named_series.{index}.part_of"
        if whole not in names:
            raise ResultFileError(f"{where}: {whole!r} is not the name of a series of this "
                                  f"file ({', '.join(names)})")
        if chain := cycle_through(part_of, entry["name"]):
            raise ResultFileError(f"{where}: {' is part of '.join(map(repr, chain))}: a series "
                                  "cannot be, directly or not, a part of itself")


def _block_starts(text: bytes, announced: int) -> list[int]:
    """Where each `series NAME` line begins in `text` (the lines after the header): samples
    are digits only, so the first such line ends them. Looks for one block more than
    announced at most, so a file of nothing but markers costs no more than its size."""
    starts = [0] if text.startswith(BLOCK_MARKER) else []
    at = 0
    while len(starts) <= announced:
        at = text.find(b"\n" + BLOCK_MARKER, at) + 1
        if at == 0:
            break
        starts.append(at)
    return starts


def _parse_blocks(path: Path, text: bytes, entries: list[dict],
                  sample_count: int) -> tuple[np.ndarray, NamedSeries]:
    """The samples, then each named series' block in header order: its `series NAME`
    line and `sample_count` values."""
    starts = _block_starts(text, len(entries))
    samples = _parse_samples(path, text[:starts[0] if starts else len(text)], sample_count)
    values: dict[str, np.ndarray] = {}
    for index, start in enumerate(starts):
        # Every earlier block held exactly sample_count values, or it was refused.
        line = 3 + sample_count + index * (sample_count + 1)
        end = text.index(b"\n", start)  # text ends with a line break (the 'end' line follows)
        found = text[start + len(BLOCK_MARKER):end]
        shown = found[:MAX_NAME_LENGTH + 8].decode("utf-8", errors="replace")
        if index >= len(entries):
            raise ResultFileError(f"{path}:{line}: named_series: a block {shown!r} beyond the "
                                  f"{len(entries)} series the header announces")
        wanted = entries[index]["name"]
        if found != wanted.encode():
            raise ResultFileError(f"{path}:{line}: named_series.{index}.name: the block is "
                                  f"'series {shown}'; the header lists {wanted!r} there "
                                  "(blocks follow the header's order)")
        following = starts[index + 1] if index + 1 < len(starts) else len(text)
        values[wanted] = _parse_samples(path, text[end + 1:following], sample_count,
                                        first_line=line + 1, block=repr(wanted))
    if len(values) < len(entries):
        missing = [entry["name"] for entry in entries[len(values):]]
        end_line = 3 + text.count(b"\n")
        raise ResultFileError(f"{path}:{end_line}: named_series: the header "
                              f"announces {len(entries)} series but the file holds "
                              f"{len(values)} blocks before 'end' (missing: "
                              f"{', '.join(missing)})")
    return samples, NamedSeries(values, {e["name"]: e.get("part_of") for e in entries})
