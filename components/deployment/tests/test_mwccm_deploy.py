"""mwccm-deploy, mwccm-node and mwccm-component-server as real processes:
the Basic SP plans deployed dynamically, ticking, timed phase by phase, torn
down by signal or by --teardown (twice), and each fault undone with no
process or file left behind.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import deployment_programs
import pytest
from deployment_programs import (
    ARTIFACTS,
    DEPLOY,
    HANG_S,
    INSPECT,
    MWCCM_PROCESSES,
    PHASES_OF_BOTH,
    PLANS,
    TEST_PLANS,
    children_of,
    hud_updates,
    start_waiting,
    stop,
)

# The fixture, for the tests below (a fixture is found by its name in the module).
no_processes_left = deployment_programs.no_processes_left


def test_a_source_that_reaches_a_process_by_two_gateways_shows_each_tick_once(
        tmp_path, no_processes_left):
    # The GPS's events reach the display process through UDP for one Airframe and through
    # IIOP for the other: each HUD gets each event once, in order.
    logs = {name: tmp_path / f"{name}.log" for name in ("hud_udp", "hud_iiop")}
    settings = [arg for name, log in logs.items() for arg in ("--set", f"{name}.log_file={log}")]
    process = start_waiting(tmp_path, TEST_PLANS / "two_gateways.config",
                            "--set", "rate_gen.hertz=200", *settings)
    try:
        deadline = time.monotonic() + HANG_S
        while min(hud_updates(tmp_path, tmp_path / f"{name}.ior") for name in logs) < 40:
            assert time.monotonic() < deadline, "the HUDs did not reach 40 updates"
            assert process.poll() is None, process.stderr.read()
    finally:
        stop(process)  # the HUDs write their logs when passivated
    # Before the teardown, the launcher says what the channels did: the second copies
    # dropped, counted for the display's channel and its supplier.
    said = process.stdout.read()
    supplier = next((line for line in said.splitlines() if ", from gps.ready: " in line), None)
    assert supplier is not None, said
    assert int(supplier.split("duplicates ")[1].split(",")[0]) >= 40, supplier
    for name, log in logs.items():
        # One tick per update; the HUD pulls the latest position, so a tick may show
        # twice, but never more updates than ticks: each update is another event.
        ticks = [int(line.split()[2]) for line in log.read_text().splitlines()]
        assert len(ticks) >= 40, name
        assert ticks == sorted(ticks), f"{name} showed an older tick after a newer one"
        assert len(ticks) <= ticks[-1], f"{name}: {len(ticks)} updates for {ticks[-1]} ticks"


@pytest.mark.parametrize(
    ("plan", "servers", "nodes"),
    [("one_process", 1, 1), ("two_processes", 2, 1), ("four_processes_two_nodes", 4, 2)],
)
def test_basic_sp_deploys_ticks_and_tears_down(tmp_path, no_processes_left, plan, servers, nodes):
    process = start_waiting(tmp_path, PLANS / f"{plan}.cdp")
    try:
        spawned = children_of(process.pid)
        commands = [Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[0] for p in spawned]
        assert sum(c.endswith(b"/mwccm-component-server") for c in commands) == servers
        assert sum(c.endswith(b"/mwccm-node") for c in commands) == nodes
        assert (tmp_path / "hud.ior").read_text().startswith("IOR:")  # mwccm.InstanceIOR
    finally:
        stop(process)
    assert not (tmp_path / "hud.ior").exists(), "the registration was not undone"
    timings = json.loads((tmp_path / "timings.json").read_text())
    per_step = timings["total_ns_per_step"]
    for step in (*PHASES_OF_BOTH, "plan_parsing", "node_start", "library_load",
                 "registration_reference"):
        assert step in per_step, step
    processes = {s["process"] for s in timings["steps"]}
    assert len(processes - {"launcher"} - {"Avionics", "Sensors", "Display"}) == servers


def test_a_component_server_killed_while_running_is_named_and_its_registration_removed(
        tmp_path, no_processes_left):
    process = start_waiting(tmp_path, PLANS / "two_processes.config")
    assert (tmp_path / "hud.ior").exists()
    display = next(pid for pid in children_of(process.pid)
                   if b"Avionics.airframe" in Path(f"/proc/{pid}/cmdline").read_bytes())
    os.kill(display, signal.SIGKILL)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=HANG_S) == 1
    said = process.stderr.read()
    assert "Avionics.airframe: its component server had ended: the process killed by signal 9" \
        in said, said
    assert not (tmp_path / "hud.ior").exists(), "the dead server's registration was left"


def test_a_state_file_deployment_is_torn_down_twice(tmp_path, no_processes_left,
                                                    own_processes):
    state = tmp_path / "deployment.json"
    result = subprocess.run(
        [DEPLOY, PLANS / "two_processes.config", "--artifacts", ARTIFACTS, "--state", state],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # The node and two component servers outlive the launcher, and carry the test's tag: what
    # no_processes_left looks for.
    assert len(own_processes(MWCCM_PROCESSES)) >= 3
    for _ in range(2):
        result = subprocess.run(
            [DEPLOY, "--teardown", "--state", state], capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr
    assert not state.exists()


def test_the_channels_of_a_state_file_deployment_are_inspected_and_said_at_teardown(
        tmp_path, no_processes_left):
    state = tmp_path / "deployment.json"
    result = subprocess.run([DEPLOY, TEST_PLANS / "two_gateways.config", "--artifacts", ARTIFACTS,
                             "--state", state, "--set", "rate_gen.hertz=200"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 0, result.stderr
    try:
        def gps_ready():
            inspected = subprocess.run([INSPECT, "--state", state], capture_output=True,
                                       text=True, timeout=HANG_S)
            assert inspected.returncode == 0, inspected.stderr
            channels = json.loads(inspected.stdout)["channels"]
            return next(c["suppliers"]["gps.ready"] for c in channels.values()
                        if "gps.ready" in c["suppliers"])
        deadline = time.monotonic() + HANG_S
        while gps_ready()["duplicates"] < 20:  # every event comes by UDP and by IIOP
            assert time.monotonic() < deadline, "no duplicates counted"
        assert gps_ready()["received"] >= 40
    finally:
        result = subprocess.run([DEPLOY, "--teardown", "--state", state], capture_output=True,
                                text=True, timeout=HANG_S)
    assert result.returncode == 0, result.stderr
    assert ", from gps.ready: received " in result.stdout, result.stdout
    assert not state.exists()
