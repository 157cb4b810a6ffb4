"""`mwbench run` end to end, with real driver processes on loopback.

These tests start the built drivers (make test builds them first): a tiny
spec across both drivers, servers that fail on purpose (exit before their
endpoint, crash after it, hang), an invalid spec, and Ctrl-C in the middle of
a run. They check what a user would see: exit status, stored cells, reasons.
"""

import json
import sqlite3
import subprocess

import pytest

from conftest import PING_EXPERIMENT, driver_built, exported_cells, mwbench_exe, run_spec


@pytest.fixture(autouse=True)
def _drivers_are_built():
    # Not a skip: `make test` builds the drivers first, so a missing one is a fault.
    for name in ("rawtcp", "omniorb"):
        if not driver_built(name):
            pytest.fail(f"driver {name} is not built: run `make test`, which builds it first")

TINY = """\
suite: tiny
defaults: {launches: 1, warmup: 50, samples: 300, placement: same-cpu, idle_hold: true}
experiments:
""" + PING_EXPERIMENT


run = run_spec
export = exported_cells


def test_tiny_spec_runs_every_driver_transport_and_mode(tmp_path):
    completed, db = run(tmp_path, TINY)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    cells = export(db)
    assert {(c["driver"], c["mode"], c["transport"]) for c in cells} == {
        ("rawtcp", "remote", "tcp"), ("rawtcp", "remote", "uds"),
        ("omniorb", "remote", "tcp"), ("omniorb", "remote", "uds"),
        ("omniorb", "collocated", "inproc"),
    }
    for cell in cells:
        assert cell["status"] == "ok", cell["error"]
        assert cell["samples"] == 300
        assert 0 < cell["min_us"] <= cell["p50_us"] <= cell["p99_us"] <= cell["max_us"]
        assert cell["throughput_per_s"] > 0
        assert cell["placement"] == "same-cpu" and cell["idle_hold"] is True
        assert cell["client_cpu"] == 0
    assert "combinations skipped" in completed.stdout  # rawtcp has no collocated mode
    # Piped, not a terminal: plain progress lines, the last after the last launch.
    assert "progress: 5/5 launches, " in completed.stdout


def test_overrides_run_the_named_experiments_with_their_samples_and_launches(tmp_path):
    completed, db = run(tmp_path, TINY.replace("modes: [remote, collocated]", "modes: remote")
                        + "  - {name: other, operation: roundtrip, drivers: rawtcp}\n",
                        "--filter", "ping", "--samples", "100", "--launches", "2")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    cells = export(db)
    assert {c["experiment"] for c in cells} == {"ping"}
    assert {c["samples"] for c in cells} == {100} and len(cells) == 4 * 2
    with sqlite3.connect(db) as connection:
        (plan,) = connection.execute("SELECT launch_plan FROM runs").fetchone()
    assert json.loads(plan) == {"overrides": {"experiments": ["ping"], "samples": 100,
                                              "launches": 2}}
    report = subprocess.run([mwbench_exe(), "report", "--db", str(db), "-o",
                             str(tmp_path / "report.html")], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    assert ("the spec overridden on the command line: --filter ping, --samples 100, "
            "--launches 2") in (tmp_path / "report.html").read_text()


def test_an_unknown_experiment_to_run_is_named_with_the_closest_one(tmp_path):
    completed, db = run(tmp_path, TINY, "--filter", "pnig")
    assert completed.returncode == 2
    assert completed.stderr.startswith("mwbench run: --filter pnig: ") \
        and "has no experiment 'pnig' (did you mean 'ping'?)" in completed.stderr
    assert not db.exists()


@pytest.mark.parametrize("fault, reason", [
    ("exit", "server exited with status 3 before publishing its endpoint"),
    ("crash", "client exited with status 1 (server was killed by signal SIGABRT)"),
    ("hang", "client did not finish within 3 s (server still running)"),
])
def test_failing_server_fails_its_cell_and_the_run_goes_on(tmp_path, fault, reason):
    completed, db = run(tmp_path, f"""\
        suite: faults
        defaults: {{launches: 1, warmup: 10, samples: 100, timeout_s: 3}}
        experiments:
          - {{name: broken, operation: roundtrip, drivers: rawtcp, transports: tcp,
              options: {{fault: {fault}}}}}
          - {{name: healthy, operation: roundtrip, drivers: rawtcp, transports: tcp}}
        """)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    by_name = {cell["experiment"]: cell for cell in export(db)}  # in the order they ran
    broken, healthy = by_name["broken"], by_name["healthy"]
    assert broken["status"] == "failed"
    assert reason in broken["error"]
    assert healthy["status"] == "ok"
    if fault != "hang":
        assert "stderr (last lines)" in broken["error"]  # the tail of the process's errors
    assert "1 of 2 launches failed" in completed.stdout


def test_invalid_spec_exits_2_before_anything_runs(tmp_path):
    completed, db = run(tmp_path, """\
        suite: bad
        experiments:
          - {name: e, operation: roundtrip, drivers: [rawtcp, corba9]}
        """)
    assert completed.returncode == 2
    assert "unknown driver 'corba9'; known drivers:" in completed.stderr
    assert not db.exists()


def test_each_dds_fanout_cell_has_a_partition_of_its_own(tmp_path):
    # The default partition is every fan-out's on the network: another run's
    # publisher beside this one would reach its readers. Each cell (every launch)
    # gets its own, all of the cell's processes the same, unless the spec names one.
    if not driver_built("ccmevents"):
        pytest.skip("ccmevents is not built (no Cyclone DDS)")
    completed, db = run(tmp_path, """\
        suite: partitions
        defaults: {launches: 2, warmup: 20, samples: 100, placement: same-cpu}
        experiments:
          - name: dds
            operation: fanout
            drivers: [ccmevents]
            modes: [remote, collocated]
            transports: [dds]
            subscribers: [2]
            delivery: [dds]
          - name: named
            operation: fanout
            drivers: [ccmevents]
            modes: [collocated]
            subscribers: [1]
            delivery: [dds]
            options: {dds_partition: mine}
        """)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT experiment, mode, measurer_header, server_header FROM cells").fetchall()
    partitions = []
    for experiment, mode, measurer, server in rows:
        options = json.loads(measurer)["options"]
        if experiment == "named":
            assert options["dds_partition"] == "mine"
            continue
        partitions.append(options["dds_partition"])
        assert partitions[-1].startswith("mwbench-")
        if mode == "remote":
            assert json.loads(server)["options"]["dds_partition"] == partitions[-1]
    assert len(partitions) == 4 and len(set(partitions)) == 4
