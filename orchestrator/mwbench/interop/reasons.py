"""Why a pair failed: the client's error line, and the kind of interop failure it shows.

A failed pair's error (cell.py: the orchestrator's one-line verdict, then the
tail of each process's standard error) is read for the client's own error
line (`mwbench-driver-NAME: error: ...`, driver contract section 2), which
is kept as it is, and classified by the first kind whose pattern it matches.
The orchestrator's verdict decides first what the client cannot say itself
(a server that never published its endpoint, a client that hung); the
system exceptions are named alike by C++ (`CORBA::MARSHAL`) and Java ORBs
(`org.omg.CORBA.MARSHAL`), so one pattern reads both.
"""

import re
from dataclasses import dataclass

CLIENT_TAIL = "--- client stderr (last lines) ---"


@dataclass(frozen=True)
class Kind:
    name: str
    means: str  # for the report's legend and docs/interop.md
    pattern: str


# In the order they are tried: the specific before the general (a MARSHAL that names the
# GIOP version is a version problem; a TRANSIENT after a refused connection is the server's).
KINDS = (
    Kind("server", "the server did not start or did not publish its endpoint",
         r"before publishing its endpoint|did not publish its endpoint"),
    Kind("timeout", "no reply in time: the client hung and was stopped, or a call timed out",
         r"did not finish within|\bTIMEOUT\b|CallTimedout|timed out"),
    Kind("giop-version", "the ORBs did not agree on a GIOP version",
         r"GIOP ?version|InvalidGIOPVersion|unsupported GIOP|GIOP 1\.[0-9] (is )?not"),
    Kind("code-set", "no common transmission code set (CODESET_INCOMPATIBLE, DATA_CONVERSION)",
         r"CODESET|code ?set|DATA_CONVERSION"),
    Kind("service-context", "a service context one ORB sent and the other refused or misread",
         r"service ?context"),
    Kind("no-such-operation", "the object has no such operation (BAD_OPERATION): another "
                              "interface than the client's",
         r"BAD_OPERATION|no such operation|unknown operation"),
    Kind("no-such-object", "the object key names no object on the server (OBJECT_NOT_EXIST, "
                           "OBJ_ADAPTER, INV_OBJREF)",
         r"OBJECT_NOT_EXIST|OBJ_ADAPTER|INV_OBJREF"),
    Kind("endpoint", "the client could not use the server's endpoint file (its format, or a "
                     "reference of another kind)",
         r"endpoint|not a corbaloc|not a CCMObject|gave no Test::RoundTrip"),
    Kind("marshal", "a message one side could not unmarshal (MARSHAL)", r"\bMARSHAL"),
    Kind("wrong-data", "the call returned, with other bytes or values than were sent (verify=1)",
         r"returned a value other|differs|rejected a payload|bytes, expected|BAD_PARAM"),
    Kind("connection", "the connection failed or dropped (TRANSIENT, COMM_FAILURE)",
         r"TRANSIENT|COMM_FAILURE|connection refused|connection reset"),
    Kind("other", "none of the above: read the client's line", r""),
)
BY_NAME = {kind.name: kind for kind in KINDS}
_COMPILED = [(kind, re.compile(kind.pattern, re.IGNORECASE)) for kind in KINDS]


@dataclass(frozen=True)
class Reason:
    kind: str  # a name of KINDS
    line: str  # the client's error line, raw (or the orchestrator's verdict)


def client_line(error: str) -> str:
    """The client's own error line in a failed pair's error, else its last line of output,
    else the orchestrator's verdict (the error's first line)."""
    lines = error.splitlines()
    verdict = lines[0] if lines else ""
    if CLIENT_TAIL not in lines:
        return verdict
    tail = lines[lines.index(CLIENT_TAIL) + 1:]
    tail = tail[:next((i for i, line in enumerate(tail) if line.startswith("--- ")), len(tail))]
    said = [line for line in tail if line.strip()]
    errors = [line for line in said if "error:" in line or "Exception" in line]
    return (errors or said or [verdict])[-1].strip()


def classify(error: str) -> Reason:
    """The kind of failure `error` shows, with the line it was read from."""
    lines = error.splitlines()
    verdict = lines[0] if lines else ""
    line = client_line(error)
    tried = [(verdict, _COMPILED[:2]), (line, _COMPILED[1:-1]), (error, _COMPILED[1:-1])]
    for text, kinds in tried:
        for kind, pattern in kinds:
            if pattern.search(text):
                return Reason(kind.name, line)
    return Reason("other", line)
