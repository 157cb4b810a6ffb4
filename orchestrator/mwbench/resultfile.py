"""Reader of the result files that drivers write (docs/driver-contract.md, section 4).

The format is pinned by the test vectors in contract/vectors/. A file that is
cut short, of another major version, or inconsistent with its own header is
refused with a message naming the file, so a cell fails with a reason instead
of storing half a measurement.
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
class ResultFile:
    header: dict
    samples_ns: np.ndarray  # int64, one element per sample, as written

    @property
    def batch_size(self) -> int:
        return int(self.header.get("batch_size", 1))

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
    return ResultFile(header=header, samples_ns=samples)
