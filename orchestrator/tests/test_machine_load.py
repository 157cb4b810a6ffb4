"""Other work on the machine: a busy process is found, named, and warned about."""

import os
import subprocess
import sys

from mwbench import machine_load
from mwbench.report.data import Run
from mwbench.report.disclosure import facts, warnings

SAMPLES = 100  # of 0.4 s: a hang, not a busy machine, exhausts them


def test_a_busy_process_is_listed_with_its_affinity_and_nice(monkeypatch):
    # The share that makes a process busy, lowered: on a machine as busy as a dozen
    # runnable processes on 2 CPUs, a niced burner gets about 3% of a CPU, not the 10%
    # that makes it worth a warning; the test is of the listing, not of the threshold.
    monkeypatch.setattr(machine_load, "BUSY_SHARE", 0.01)
    # Started through a shell that exits at once, so the burner is no child of this
    # process: to the snapshot it is other work, as any process outside mwbench's tree.
    burner = subprocess.Popen(["sh", "-c", f"exec nice -n 5 {sys.executable} -c "
                                           "'while True: pass' & echo $!"],
                              stdout=subprocess.PIPE, text=True)
    pid = int(burner.stdout.readline())
    try:
        # On a busy machine the niced burner may get less than BUSY_SHARE of a CPU in
        # one sample: it is busy, and listed, in the first sample in which it got it.
        for _ in range(SAMPLES):
            load = machine_load.snapshot(sample_s=0.4)
            found = [p for p in load["busy_processes"] if p["pid"] == pid]
            if found:
                break
        (found,) = found
        assert found["cpu_share"] >= machine_load.BUSY_SHARE
        # `nice -n 5` adds to the niceness the test runs at (a suite run under nice).
        assert found["nice"] == min(19, os.nice(0) + 5) and found["cpus_allowed"]
        assert "while True: pass" in found["command"]
        assert len(load["loadavg"]) == 3
    finally:
        subprocess.run(["kill", str(pid)], check=False)
        burner.wait()


def test_busy_processes_become_a_warning_and_a_fact():
    load = {"loadavg": [2.0, 1.5, 1.0], "sample_s": 0.5, "busy_processes": [
        {"pid": 42, "command": "python3 -c while True: pass", "cpu_share": 0.5, "nice": -20,
         "cpus_allowed": "0"}]}
    run = Run(id=1, suite="s", spec_path="s.yaml", spec_text="", environment={
        "machine": {"cpu_count": 2}, "machine_load": load}, status="finished",
        started_utc="", finished_utc="", experiments=[], cells=[])
    (warning,) = warnings(run)
    assert warning == ("Other processes were using CPU when the run started, and compete with "
                       "the cells that run on the same CPUs (same-cpu placement pins both ends "
                       "to CPU 0): pid 42 `python3 -c while True: pass` used 50% of a CPU "
                       "(CPUs 0, nice -20).")
    assert ("load at start", "load average 2.00, 1.50, 1.00 (1, 5, 15 min); 1 other process "
                             "busy") in facts(run)
