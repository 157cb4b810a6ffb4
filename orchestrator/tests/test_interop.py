"""`mwbench interop`: every ORB built here against every other, with real driver processes.

Each pair either passes or fails with a kind of failure and the client's own
line; a pair whose driver is not built here is skipped with the reason
`mwbench list` gives. Broken pairs (a server that exits, crashes or never
answers; a client given another kind's endpoint) fail with their reason, in
bounded time. Nothing is left behind: no process, no scratch directory, no
ledger.
"""

import json
import os
import re
import sqlite3
import subprocess
import tempfile

import pytest
from proc_view import TEST_TAG, tagged_processes

from conftest import REPO, driver_built, mwbench_exe
from mwbench.interop.orbs import BY_NAME, ORBS, Side
from mwbench.interop.pairs import Call, Settings, run_pair
from mwbench.interop.reasons import BY_NAME as KINDS_OF_FAILURE
from mwbench.interop.reasons import Reason, classify

pytestmark = pytest.mark.skipif(not (driver_built("omniorb") and driver_built("ccm")),
                                reason="the omniorb and ccm drivers are not built")

QUICK = ["--samples", "50", "--warmup", "10"]
CALLS = [("roundtrip", 0), ("octets_inout", 0), ("octets_inout", 1024),
         ("octets_inout", 65536)]
# What this build found across ORBs (docs/interop.md): pairs that fail, and why. Every pair
# not listed passes.
KNOWN_FAILURES: dict[tuple, str] = {}


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    """The whole matrix, run once as a user runs it, in a directory of its own; the
    finished process, its rows, its database and its directory."""
    directory = tmp_path_factory.mktemp("interop")
    scratch = directory / "tmp"
    scratch.mkdir()
    tag = f"interop-{os.getpid()}"
    environment = {**os.environ, "TMPDIR": str(scratch), TEST_TAG: tag,
                   "MWBENCH_STATE_DIR": str(directory / "state")}
    db = directory / "m.db"
    done = subprocess.run([mwbench_exe(), "interop", "--db", str(db), *QUICK],
                          capture_output=True, text=True, env=environment, timeout=1200)
    connection = sqlite3.connect(db)
    connection.row_factory = sqlite3.Row
    rows = [dict(row) for row in connection.execute("SELECT * FROM interop ORDER BY rowid")]
    return {"done": done, "rows": rows, "db": db, "dir": directory, "scratch": scratch,
            "left": tagged_processes(tag, ())}


def listed_drivers() -> dict:
    out = subprocess.run([mwbench_exe(), "list", "--json"], capture_output=True, text=True,
                         check=True).stdout
    return {driver["name"]: driver for driver in json.loads(out)["drivers"]}


def test_every_pair_of_every_kind_and_call_is_there_once(matrix):
    done, rows = matrix["done"], matrix["rows"]
    assert done.returncode in (0, 1), done.stderr
    pairs = {(r["kind"], r["operation"], r["payload_bytes"], r["client_orb"], r["server_orb"])
             for r in rows}
    names = [orb.name for orb in ORBS]
    assert pairs == {(kind, operation, size, client, server)
                     for kind in ("object", "component") for operation, size in CALLS
                     for client in names for server in names}
    assert len(rows) == len(pairs)
    assert done.returncode == (1 if any(r["status"] == "fail" for r in rows) else 0)


def test_each_pair_passes_or_fails_with_a_reason(matrix):
    drivers = listed_drivers()
    for row in matrix["rows"]:
        sides = (json.loads(row["client"])["driver"], json.loads(row["server"])["driver"])
        missing = [name for name in sides if not drivers.get(name, {}).get("available")]
        pair = (row["kind"], row["operation"], row["payload_bytes"], row["client_orb"],
                row["server_orb"])
        if missing:  # skipped, saying why as `mwbench list` does (or that there is no driver)
            assert row["status"] == "skipped", row
            reason = drivers[missing[0]]["reason"] if missing[0] in drivers else \
                "is not in this tree"
            assert reason in row["reason"], row
        elif row["status"] == "skipped":  # a side its driver does not offer yet, so named
            lacking = re.search(r"driver (\w+) has no option (\w+)", row["reason"])
            assert lacking, row
            assert lacking.group(2) not in drivers[lacking.group(1)]["options"], row
            assert pair[:3] + ("omniorb", "omniorb") != pair, row
        elif row["status"] == "fail":
            assert row["reason"] in KINDS_OF_FAILURE and row["line"], row
            assert KNOWN_FAILURES.get(pair) == row["reason"], f"new finding: {row}"
        else:
            assert row["status"] == "pass", row
            assert pair not in KNOWN_FAILURES, f"{pair} passes now: update docs/interop.md"
            assert row["p50_us"] > 0 and row["samples"] == 50, row


def test_omniorb_passes_with_itself_for_objects_and_components(matrix):
    own = [r for r in matrix["rows"] if r["client_orb"] == r["server_orb"] == "omniorb"]
    assert len(own) == 8 and all(r["status"] == "pass" for r in own), own
    components = {json.loads(r["server"])["driver"] for r in own if r["kind"] == "component"}
    assert components == {"ccm"}


def test_every_orb_calls_every_orbs_objects(matrix):
    # docs/interop.md, "Findings": omniORB, JacORB and the GlassFish ORB, each way, each call.
    java = listed_drivers().get("java", {})
    if not java.get("available"):
        pytest.skip(f"the java driver is not available: {java.get('reason', 'not in this tree')}")
    objects = [r for r in matrix["rows"] if r["kind"] == "object"]
    assert len(objects) == 36
    assert [r for r in objects if r["status"] != "pass"] == []


def test_nothing_is_left_behind(matrix):
    assert not matrix["left"]
    assert list(matrix["scratch"].iterdir()) == []
    assert list((matrix["dir"] / "state").glob("run-*.json")) == []


def test_the_report_draws_one_matrix_per_kind_and_call(matrix, tmp_path):
    html = tmp_path / "r.html"
    subprocess.run([mwbench_exe(), "report", "--db", str(matrix["db"]), "-o", str(html)],
                   check=True, capture_output=True)
    text = html.read_text()
    assert "IIOP interoperability" in text
    assert text.count('<table class="interop-matrix"') == 8
    assert "Components: octets_inout 65536 B" in text and "Objects: roundtrip" in text
    assert "client ↓ server →" in text
    assert "Every middleware against the raw socket" not in text  # a run of no cells


@pytest.fixture
def in_scratch(tmp_path, monkeypatch, own_processes):
    """Pairs run in this process: their scratch directories under tmp_path, their
    processes tagged as this test's."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    yield own_processes
    assert not own_processes()
    assert list(tmp_path.glob("mwbench-cell-*")) == []


OBJECT = BY_NAME["omniorb"].side("object")
COMPONENT = BY_NAME["omniorb"].side("component")


@pytest.mark.parametrize("fault, kind", [("exit", "server"), ("crash", "connection"),
                                         ("hang", "timeout")])
def test_a_server_that_fails_fails_the_pair_with_its_reason(in_scratch, fault, kind):
    server = Side("omniorb", "object", "omniorb", {"fault": fault})
    result = run_pair(OBJECT, server, Call("roundtrip", 0), Settings(50, 10, timeout_s=5))
    assert result.status == "fail" and result.reason == kind, result
    assert result.line and result.error


@pytest.mark.parametrize("client, server", [(COMPONENT, OBJECT), (OBJECT, COMPONENT)])
def test_a_client_given_another_kinds_endpoint_says_so(in_scratch, client, server):
    result = run_pair(client, server, Call("roundtrip", 0), Settings(50, 10, timeout_s=30))
    assert result.status == "fail" and result.reason == "endpoint", result
    assert "endpoint" in result.line


def test_an_unknown_orb_is_a_usage_error_naming_it(tmp_path):
    done = subprocess.run([mwbench_exe(), "interop", "--orb", "omniorbb", "--db",
                           str(tmp_path / "m.db")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "'omniorbb'" in done.stderr and "did you mean 'omniorb'" in done.stderr
    assert not (tmp_path / "m.db").exists()


def test_records_carry_strings_between_objects_and_a_component_side_says_it_has_none(
        in_scratch):
    records = Call("records", 1024)  # 32 structs, each with a string: the code sets' part
    assert run_pair(OBJECT, OBJECT, records, Settings(50, 10)).status == "pass"
    skipped = run_pair(COMPONENT, COMPONENT, records, Settings(50, 10))
    assert skipped.status == "skipped", skipped
    assert skipped.reason == "client: driver ccm does not offer records"


def failure(verdict: str, client_line: str, server_line: str = "serving") -> str:
    """A failed pair's error as cell.py writes it: the verdict, then each process's tail."""
    return (f"{verdict}\n--- client stderr (last lines) ---\nsome warning\n{client_line}\n"
            f"--- server stderr (last lines) ---\n{server_line}")


@pytest.mark.parametrize("line, kind", [
    ("mwbench-driver-java: error: call failed: org.omg.CORBA.MARSHAL: Unsupported GIOP "
     "version 1.3", "giop-version"),
    ("mwbench-driver-omniorb: error: call failed: CORBA::CODESET_INCOMPATIBLE", "code-set"),
    ("mwbench-driver-java: error: org.omg.CORBA.DATA_CONVERSION: no char code set", "code-set"),
    ("mwbench-driver-java: error: org.omg.CORBA.BAD_PARAM: invalid service context 1229081874",
     "service-context"),
    ("mwbench-driver-ccm: error: call failed: CORBA::BAD_OPERATION (BAD_OPERATION_UnRecognis"
     "edOperationName)", "no-such-operation"),
    ("mwbench-driver-java: error: org.omg.CORBA.OBJECT_NOT_EXIST: vmcid: 0x0 minor code: 0",
     "no-such-object"),
    ("mwbench-driver-omniorb: error: call failed: CORBA::MARSHAL (MARSHAL_PassEndOfMessage)",
     "marshal"),
    ("mwbench-driver-omniorb: error: octets_inout: reply differs from the servant's pattern at "
     "byte 3 of 1024 (verify=1)", "wrong-data"),
    ("mwbench-driver-java: error: org.omg.CORBA.TRANSIENT: Retries exceeded", "connection"),
    ("mwbench-driver-java: error: something new", "other"),
])
def test_the_clients_line_is_kept_and_classified(line, kind):
    reason = classify(failure("client exited with status 1 (server still running)", line))
    assert reason == Reason(kind, line)


def test_a_client_that_says_nothing_known_is_read_with_the_servers_tail():
    error = failure("client exited with status 1", "mwbench-driver-java: error: call failed",
                    "omniORB: unmarshal failed: CORBA::MARSHAL")
    assert classify(error) == Reason("marshal", "mwbench-driver-java: error: call failed")


def test_what_the_client_cannot_say_comes_from_the_verdict():
    hung = classify(failure("client did not finish within 60 s", "warming up"))
    assert hung.kind == "timeout"
    exited = classify("server exited with status 3 before publishing its endpoint")
    assert exited == Reason("server", "server exited with status 3 before publishing its "
                                      "endpoint")


def test_docs_explain_every_kind_of_failure():
    text = (REPO / "docs" / "interop.md").read_text()
    assert all(f"| `{name}` |" in text for name in KINDS_OF_FAILURE)
