"""One pair of the matrix: a client side against a server side, for one call.

Each side's cell is what `mwbench run` would make of a one-experiment spec
(its driver, the call, remote over TCP, unpinned, one launch, few samples,
verify=1 where the driver has it, so that a pair passes only if every byte
came back as sent): the spec's checks and the matrix's say what a driver
cannot run. The pair runs as a cell does (cell.py: a scratch directory,
the server, its endpoint file, the other driver's client with it, every
process stopped and reaped), and its verdict is the client's result, judged
as any cell's, or its failure with the reason (reasons.py).
"""

from dataclasses import dataclass

from ..cell import run_cell
from ..matrix import Cell, MatrixError, expand
from ..spec import Spec
from .orbs import Side
from .reasons import classify

# How long a pair may take before its client is stopped: long enough for two JVMs to start
# and 64 KiB calls on a crowded machine, short enough that a hung pair does not stall the
# matrix.
PAIR_TIMEOUT_S = 60.0
VERIFY = "verify"


@dataclass(frozen=True)
class Call:
    operation: str  # roundtrip | octets_inout | records
    payload_bytes: int

    def label(self) -> str:
        return self.operation if self.operation == "roundtrip" else \
            f"{self.operation} {self.payload_bytes} B"


@dataclass(frozen=True)
class Settings:
    samples: int = 200
    warmup: int = 50
    timeout_s: float = PAIR_TIMEOUT_S


@dataclass
class PairResult:
    kind: str
    call: Call
    client: Side
    server: Side
    status: str  # pass | fail | skipped
    reason: str | None = None  # a reasons.KINDS name (fail), or why it was skipped
    line: str | None = None  # the client's error line, raw
    error: str | None = None  # the whole failure, as cell.py wrote it
    p50_us: float | None = None
    p99_us: float | None = None
    samples: int | None = None
    duration_s: float = 0.0

    def row(self) -> dict:
        """As the store's `interop` table holds it (store_schema.py, version 11)."""
        return {"kind": self.kind, "operation": self.call.operation,
                "payload_bytes": self.call.payload_bytes, "client_orb": self.client.orb,
                "server_orb": self.server.orb, "status": self.status, "reason": self.reason,
                "line": self.line, "error": self.error, "p50_us": self.p50_us,
                "p99_us": self.p99_us, "samples": self.samples,
                "client": {"driver": self.client.driver, "options": self.client.options},
                "server": {"driver": self.server.driver, "options": self.server.options},
                "duration_s": self.duration_s}


def side_cell(side: Side, call: Call, settings: Settings) -> Cell | str:
    """The cell of `side` for `call`, or why the side's driver cannot run it."""
    if problem := side.unavailable():
        return problem
    info = side.info()
    if call.operation not in info.operations:
        return f"driver {side.driver} does not offer {call.operation}"
    options = dict(side.options)
    if VERIFY in info.options:
        options[VERIFY] = "1"
    experiment = {
        "name": f"interop-{side.orb}-{side.kind}", "drivers": [side.driver],
        "operation": [call.operation], "payload_bytes": [call.payload_bytes],
        "modes": ["remote"], "transports": ["tcp"], "placement": ["unpinned"],
        "idle_hold": [False], "options": {key: [value] for key, value in options.items()},
        "samples": settings.samples, "warmup": settings.warmup, "launches": 1, "batch": 1,
        "timeout_s": settings.timeout_s,
    }
    spec = Spec.model_validate({"suite": "interop", "experiments": [experiment]})
    try:
        matrix = expand(spec, {side.driver: info}, seed=0)
    except MatrixError as error:
        return f"driver {side.driver}: {error}"
    if not matrix.cells:
        return "; ".join(f"driver {s.driver}: {s.what}: {s.reason}" for s in matrix.skipped)
    return matrix.cells[0]


def run_pair(client: Side, server: Side, call: Call, settings: Settings) -> PairResult:
    """Run one pair, or say why it cannot run here (`skipped`)."""
    result = PairResult(server.kind, call, client, server, "skipped")
    server_cell = side_cell(server, call, settings)
    client_cell = side_cell(client, call, settings)
    for role, cell in (("client", client_cell), ("server", server_cell)):
        if isinstance(cell, str):
            result.reason = f"{role}: {cell}"
            return result
    record = run_cell(server_cell, server.info(), client=(client_cell, client.info()))
    result.duration_s = record.duration_s
    if record.status == "ok":
        result.status = "pass"
        result.p50_us = record.stats["p50_us"]
        result.p99_us = record.stats["p99_us"]
        result.samples = int(record.stats["samples"])
        return result
    reason = classify(record.error or "")
    result.status, result.reason, result.line = "fail", reason.kind, reason.line
    result.error = record.error
    return result
