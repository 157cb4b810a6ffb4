"""Basic SP on two mwccm nodes started over real SSH, each on a test host of its own
(testsupport/testhosts.py: a network namespace running an OpenSSH server), as a lab would
run them: every process (the nodes, mwccm-deploy, mwccm-inspect) is started through
mwbench's SSH launcher, every file (IORs, the node map, the plan, the HUD's log)
goes through it, and both hosts run their SSH server alone afterwards.

RateGen and GPS run on node Sensors (host-1), Airframe and HUD on node Display
(host-2); the GPS's events cross the link through the channels' UDP gateway
(plans/two_namespaces.config, its addresses replaced by the hosts').

Run as root after building:
    MWBENCH_BUILD_DIR=build .venv/bin/pytest orchestrator/tests/test_hosts_basic_sp_nodes.py
"""

import json
import os
import time
from pathlib import Path

import pytest

from mwbench.hosts.inventory import load_inventory
from mwbench.hosts.ssh import SshLauncher
from testsupport import testhosts

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).resolve()
PLAN = REPO / "components" / "deployment" / "tests" / "plans" / "two_namespaces.config"
ARTIFACTS = Path("components") / "basic_sp"  # in each host's build
NODE = Path("components") / "server" / "mwccm-node"
DEPLOY = Path("components") / "server" / "mwccm-deploy"
INSPECT = Path("components") / "deployment" / "mwccm-inspect"
HANG_S = 120  # how long a test waits for what must happen: only a hang exceeds it
UPDATES = 40  # HUD updates to see before tearing down

pytestmark = [
    pytest.mark.skipif(testhosts.unavailable() is not None,
                       reason=str(testhosts.unavailable())),
    pytest.mark.skipif(not (BUILD / NODE).is_file(), reason="mwccm-node is not built"),
]


def wait_until(condition, child, what):
    """Until condition() holds; fails with the child's output if it exits first."""
    deadline = time.monotonic() + HANG_S
    while not condition():
        if child.exited() or time.monotonic() > deadline:
            pytest.fail(f"{what}: not seen; {child.describe_exit()}:\n{child.stderr_tail()}")
        time.sleep(0.02)


def start_node(place, name, tmp_path):
    ior = place.scratch / f"{name}.ior"
    node = place.start(name, [place.program(NODE), "--name", name,
                              "--artifacts", place.program(ARTIFACTS),
                              "--endpoint", f"giop:tcp:{place.host.bind}:0",
                              "--ior-file", ior], tmp_path)
    wait_until(lambda: place.exists(ior), node, f"node {name}'s IOR")
    return node, place.read(ior).decode().strip()


def hud_updates(display, tmp_path):
    """The HUD's `updates`, read by mwccm-inspect on the Display host. The generated
    BasicSP_HUD.ccd lists only the attributes a plan may set, so mwccm-inspect is given
    a copy that lists this readonly one too."""
    interfaces = display.scratch
    if not display.exists(interfaces / "BasicSP_HUD.ccd"):
        ccd = display.read(display.program(ARTIFACTS / "BasicSP_HUD.ccd")).decode()
        updates = "<property><name>updates</name><type><kind>tk_ulonglong</kind></type></property>"
        display.write(interfaces / "BasicSP_HUD.ccd",
                      ccd.replace("<property>", updates + "<property>", 1).encode())
    inspect = display.start("inspect", [display.program(INSPECT),
                                        f"hud=file:{display.scratch / 'hud.ior'}",
                                        "--interfaces", interfaces], tmp_path)
    assert inspect.wait(HANG_S) == 0, inspect.stderr_tail()
    return int(json.loads(inspect.stdout_path.read_text())["hud"]["attributes"]["updates"])


def test_basic_sp_on_two_nodes_started_over_ssh(tmp_path):
    with testhosts.ssh_hosts(2) as hosts:
        inventory = load_inventory(hosts.inventory)
        launchers = [SshLauncher(inventory[name]) for name in ("host-1", "host-2")]
        try:
            with launchers[0].place(False, tmp_path, tmp_path) as sensors, \
                    launchers[1].place(False, tmp_path, tmp_path) as display:
                deploy_basic_sp(sensors, display, tmp_path)
        finally:
            for launcher in launchers:
                launcher.close()
        for test_host in hosts.hosts:
            deadline = time.monotonic() + HANG_S
            while test_host.host.pids() - {test_host.server.pid}:
                assert time.monotonic() < deadline, f"{test_host.name}: processes left"
                time.sleep(0.02)


def deploy_basic_sp(sensors, display, tmp_path):
    nodes = [start_node(sensors, "Sensors", tmp_path), start_node(display, "Display", tmp_path)]
    node_map = sensors.scratch / "nodes.map"
    sensors.write(node_map, "".join(f"{name} {ior}\n" for name, (_, ior) in
                                    zip(("Sensors", "Display"), nodes, strict=True)).encode())
    plan = sensors.scratch / "basic_sp.config"
    text = PLAN.read_text().replace("198.18.0.1", sensors.host.bind) \
                           .replace("198.18.0.2", display.host.bind)
    sensors.write(plan, text.encode())
    log = display.scratch / "hud.log"
    deploy = sensors.start("deploy", [
        sensors.program(DEPLOY), plan, "--wait", "--nodes", node_map,
        "--artifacts", sensors.program(ARTIFACTS),
        "--set", "rate_gen.hertz=200", "--set", f"hud.log_file={log}"], tmp_path)
    wait_until(lambda: "mwccm-deploy: deployed" in deploy.stdout_path.read_text()
               + deploy.stderr_path.read_text(), deploy, "mwccm-deploy: deployed")
    wait_until(lambda: hud_updates(display, tmp_path) >= UPDATES, deploy, "HUD updates")

    deploy.stop(HANG_S)  # SIGTERM there: the application is torn down, the HUD's log written
    assert deploy.process.returncode == 0, deploy.stderr_tail()
    for node, _ in nodes:
        node.stop(HANG_S)
        assert node.process.returncode == 0, node.stderr_tail()
        assert "Sanitizer" not in node.stderr_path.read_text()

    # One line per update, as the HUD numbers them: from 1, none missing or repeated.
    lines = [line.split() for line in display.read(log).decode().splitlines()]
    assert len(lines) >= UPDATES
    assert [int(update) for update, _, _ in lines] == list(range(1, len(lines) + 1))
