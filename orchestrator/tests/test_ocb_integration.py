"""The Open CORBA Benchmarking parts of `mwbench run`, end to end with real processes.

Background load with the real stress-ng (recorded with the cell, gone after
Ctrl-C), client threads with their series, and a servant count beyond a
memory limit failing its cell while the run goes on. Each spec is tiny: the
point is the plumbing, not the numbers.
"""

import json
import signal
import sqlite3
import subprocess
import time

import pytest

from conftest import driver_built, exported_cells, mwbench_exe, run_spec
from mwbench.drivers import describe


@pytest.fixture(autouse=True)
def _drivers_are_built():
    for name in ("rawtcp", "omniorb"):
        if not driver_built(name):
            pytest.fail(f"driver {name} is not built: run `make test`, which builds it first")


def needs(what: str) -> None:
    """Fail (not skip) when the built omniorb driver lacks what this test exercises."""
    info = describe("omniorb")
    program = subprocess.run([str(info.program), "--help"], capture_output=True, text=True,
                             timeout=10)
    have = {"threads": "connections" in info.options,
            "servants": "target" in info.options and "--memory-limit-mb" in program.stdout}
    if not have[what]:
        pytest.fail(f"the built omniorb driver does not offer {what} yet: rebuild it")


run = run_spec
export = exported_cells


def test_background_load_runs_with_the_cell_and_is_recorded(tmp_path):
    completed, db = run(tmp_path, """\
        suite: loaded
        defaults: {launches: 1, warmup: 50, samples: 300}
        experiments:
          - {name: ping, operation: roundtrip, drivers: rawtcp, transports: tcp,
             background: [none, "cpu:1"]}
        """)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    idle, loaded = export(db)
    assert idle["background"] == "none" and idle["load_generator"] is None
    assert loaded["background"] == "cpu:1" and loaded["status"] == "ok"
    argv = loaded["load_generator"]["argv"]
    assert argv[0].endswith("stress-ng") and argv[1:3] == ["--cpu", "1"]
    assert loaded["load_generator"]["version"].startswith("stress-ng, version")
    assert any(note.startswith("crowded: 3 busy threads (1 client + 1 server + 1 background)")
               for note in loaded["notes"])
    assert "background=cpu:1" in completed.stdout or "background cpu:1" in completed.stdout


def test_ctrl_c_during_a_loaded_cell_leaves_no_load_behind(tmp_path, own_processes):
    spec = tmp_path / "spec.yaml"
    spec.write_text("""\
suite: long
defaults: {launches: 1, warmup: 10}
experiments:
  - {name: long, operation: roundtrip, drivers: rawtcp, transports: tcp, samples: 50000000,
     background: "cpu:1"}
""")
    db = tmp_path / "m.db"
    process = subprocess.Popen([mwbench_exe(), "run", str(spec), "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    load = lambda: own_processes(("stress-ng",))  # noqa: E731 - this run's, by its tag
    deadline = time.monotonic() + 120  # only a hang exceeds it
    while time.monotonic() < deadline and not load():
        time.sleep(0.1)
    assert load(), "the background load never started"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, out + err
    assert not load(), "stress-ng was left running"
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT count(*) FROM cells").fetchone()[0] == 0


def test_threads_store_their_series_and_the_systems_rate(tmp_path):
    needs("threads")
    completed, db = run(tmp_path, """\
        suite: threads
        defaults: {launches: 1, warmup: 50, samples: 400}
        experiments:
          - {name: parallel, operation: ping, drivers: omniorb, transports: tcp,
             threads: [1, 3], options: {connections: [own, shared]}}
        """)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    cells = export(db)
    connection = sqlite3.connect(db)
    for cell in cells:
        assert cell["status"] == "ok", cell["error"]
        header = json.loads(connection.execute(
            "SELECT measurer_header FROM cells WHERE id = ?", (cell["cell_id"],)).fetchone()[0])
        calls = header["sample_count"] * header["batch_size"]
        assert cell["throughput_per_s"] == pytest.approx(calls / header["measured_wall_ns"] * 1e9)
        if cell["threads"] == 3:
            assert [s["name"] for s in header["series"]] == ["thread-1", "thread-2", "thread-3"]
            assert sum(s["count"] for s in header["series"]) == cell["samples"]


def test_a_servant_count_beyond_the_memory_limit_fails_its_cell_and_the_run_goes_on(tmp_path):
    needs("servants")
    completed, db = run(tmp_path, """\
        suite: limited
        defaults: {launches: 1, warmup: 50, samples: 300}
        experiments:
          - {name: dispatcher, operation: ping, drivers: omniorb, transports: tcp,
             servants: [10, 100000], memory_limit_mb: 64}
          - {name: after, operation: ping, drivers: omniorb, transports: tcp}
        """)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    cells = {(c["experiment"], c["servants"]): c for c in export(db)}  # in the order they ran
    small, large, after = cells["dispatcher", 10], cells["dispatcher", 100000], cells["after", None]
    assert small["status"] == "ok" and after["status"] == "ok"
    assert large["status"] == "failed" and large["servants"] == 100000
    # 10 servants fit in 64 MiB of address space, 100,000 do not (about 120 MiB); the
    # server says how far it got, and the cell says what capped it.
    assert "server exited with status 1 before publishing its endpoint" in large["error"]
    assert "out of memory (--memory-limit-mb 64)" in large["error"]
    assert ("the driver processes were capped at 64 MiB of address space: memory_limit_mb in "
            "the spec") in large["error"]
