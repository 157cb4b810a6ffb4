"""The report's section "IIOP interoperability": the matrices of a run of `mwbench interop`.

One matrix per kind (object, component) and call (round trip, octets at each
size): client ORBs in rows, server ORBs in columns, in the order they ran.
A pair that passed shows its median; one that failed, the kind of failure
(interop/reasons.py) with the client's line under it; one that could not
run, that it was skipped, and why in its title and in the list below.
"""

from dataclasses import dataclass, field

from ..interop.pairs import Call
from ..interop.reasons import BY_NAME as REASONS
from ..interop.session import shortened


@dataclass
class Matrix:
    title: str
    id: str
    clients: list[str]
    servers: list[str]
    pairs: dict = field(default_factory=dict)  # (client, server) -> store row


def section(run_id: int, rows: list[dict]) -> dict | None:
    """The section's view: its matrices, the kinds of failure seen, the skipped pairs."""
    if not rows:
        return None
    matrices: dict[tuple, Matrix] = {}
    for row in rows:
        call = Call(row["operation"], row["payload_bytes"])
        key = (row["kind"], call)
        matrix = matrices.get(key)
        if matrix is None:
            matrix = matrices[key] = Matrix(
                f"{row['kind'].capitalize()}s: {call.label()}",
                f"run{run_id}-interop-{row['kind']}-{row['operation']}-{row['payload_bytes']}",
                [], [])
        for names, orb in ((matrix.clients, row["client_orb"]), (matrix.servers,
                                                                 row["server_orb"])):
            if orb not in names:
                names.append(orb)
        matrix.pairs[(row["client_orb"], row["server_orb"])] = {
            **row, "short_line": shortened(row["line"] or "", 160)}
    failures = sorted({row["reason"] for row in rows if row["status"] == "fail"})
    skipped = sorted({row["reason"] for row in rows if row["status"] == "skipped"})
    return {
        "id": f"run{run_id}-interop",
        "matrices": list(matrices.values()),
        "counts": {status: sum(1 for row in rows if row["status"] == status)
                   for status in ("pass", "fail", "skipped")},
        "failures": [(name, REASONS[name].means if name in REASONS else "") for name in failures],
        "skipped": skipped,
        "failed_rows": [row for row in rows if row["status"] == "fail"],
    }
