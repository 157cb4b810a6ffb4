"""mwccm-deploy's faults as real processes: a plan refused before anything starts, a
component or home that refuses, a server that crashes mid-assembly, a node that is down,
killed or stuck, SIGTERM in a stuck phase: each named, and undone with no process or file
left behind.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests
"""

import signal
import subprocess
import time
from pathlib import Path

import deployment_programs
import pytest
from deployment_programs import (
    ARTIFACTS,
    BUILD,
    DEPLOY,
    HANG_S,
    PLANS,
    PROGRAMS,
    broken_plan,
    children_of,
    deploy_fails,
    wait_for_file,
)

# The fixture, for the tests below (a fixture is found by its name in the module).
no_processes_left = deployment_programs.no_processes_left


def test_a_bad_plan_is_refused_before_anything_starts(tmp_path, no_processes_left):
    plan = broken_plan(tmp_path, "gps < position", "gps < positon")
    result = deploy_fails(tmp_path, plan)
    assert result.returncode == 2
    assert f"{plan}:" in result.stderr and "has no port 'positon'" in result.stderr


def test_a_rate_the_component_refuses_fails_start_and_is_undone(tmp_path, no_processes_left):
    plan = broken_plan(tmp_path, "hertz uint32:20", "hertz uint32:0")
    result = deploy_fails(tmp_path, plan)
    assert result.returncode == 1
    assert "start failed on node 'Avionics'" in result.stderr
    assert "'hertz' is from 1 to 100000, not 0" in result.stderr
    assert not (tmp_path / "hud.ior").exists()


def test_a_failed_state_deployment_leaves_no_state_and_no_empty_log(tmp_path, no_processes_left):
    plan = broken_plan(tmp_path, "hertz uint32:20", "hertz uint32:0")
    state = tmp_path / "deployment.json"
    result = subprocess.run([DEPLOY, plan, "--artifacts", ARTIFACTS, "--state", state],
                            cwd=tmp_path, capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 1, result.stderr
    assert not state.exists()
    for log in tmp_path.glob("deployment.json.*.log"):
        assert log.stat().st_size > 0, f"an empty log was left: {log}"
        assert f"the node's log is kept: {log}" in result.stderr


def test_an_artifact_outside_the_trusted_directories_is_a_plan_error(
    tmp_path, no_processes_left
):
    # The nodes the launcher starts trust its --artifacts directories: it refuses the plan
    # before starting anything (exit 2, as mwccm-plan check), once for the four
    # implementations that share the artifact.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    library = outside / "libmwccm_basic_sp_module.so"
    library.write_bytes((ARTIFACTS / "libmwccm_basic_sp_module.so").read_bytes())
    plan = broken_plan(tmp_path, '"libmwccm_basic_sp_module.so"', f'"{library}"')
    result = deploy_fails(tmp_path, plan)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{plan}:") and "outside the trusted" in lines[0], lines[0]


@pytest.mark.parametrize(("node_map", "plan", "status", "said"), [
    # a node that is down: the call to it fails, naming it
    ("# no node listens there\nAvionics corbaloc:iiop:127.0.0.1:9/NodeManager\n",
     "two_processes.cdp", 1, ["failed on node 'Avionics'", ("TRANSIENT", "COMM_FAILURE")]),
    # a map that lacks a node of the plan: refused before any call
    ("Sensors corbaloc:iiop:127.0.0.1:9/NodeManager\n", "four_processes_two_nodes.cdp", 2,
     ["on node 'Display', which the node map does not name"]),
])
def test_a_node_down_or_missing_from_the_map_is_named(tmp_path, no_processes_left, node_map,
                                                      plan, status, said):
    (tmp_path / "nodes.map").write_text(node_map)
    result = deploy_fails(tmp_path, PLANS / plan, "--nodes", tmp_path / "nodes.map")
    assert result.returncode == status, result.stderr
    for text in said:  # a pair: either one
        assert any(t in result.stderr for t in ((text,) if isinstance(text, str) else text))


FAULTS = BUILD / "components" / "deployment" / "tests"
FAULTY_INSTANCE = """
nl.remedy.it.CCM.Component fragile faults mwccm_home_Faults_{home}Home
    nl.remedy.it.DnCX11.Artifact faults "libmwccm_faults_module.so"
    nl.remedy.it.DnCX11.Node "Avionics"
    nl.remedy.it.DnCX11.Locality "display"
"""


def with_faulty_instance(tmp_path, home):
    plan = tmp_path / f"{home}.config"
    plan.write_text(
        (PLANS / "two_processes.config").read_text() + FAULTY_INSTANCE.format(home=home)
    )
    return plan


@pytest.mark.parametrize(("home", "said"), [
    ("Refusing", ["create component 'fragile'", "the executor raised CreateFailure"]),
    ("Crashing", ["the component server killed by signal 6"]),
])
def test_a_home_that_refuses_or_a_server_that_crashes_mid_assembly_is_named(
        tmp_path, no_processes_left, home, said):
    result = deploy_fails(tmp_path, with_faulty_instance(tmp_path, home), "--artifacts", FAULTS)
    assert result.returncode == 1
    assert "start_launch failed on node 'Avionics'" in result.stderr
    for text in said:
        assert text in result.stderr
    if home == "Refusing":  # undone: its server ran on to remove the registration
        assert not (tmp_path / "hud.ior").exists()


def with_blocking_instance(tmp_path):
    """two_processes plus an instance that never returns from configuration_complete
    (in the `start` phase) once it has written tmp_path/stuck."""
    plan = tmp_path / "blocking.config"
    instance = FAULTY_INSTANCE.format(home="Blocking")
    instance += f'    nl.remedy.it.DnCX11.ConfigProperty marker "{tmp_path / "stuck"}"\n'
    plan.write_text((PLANS / "two_processes.config").read_text() + instance)
    return plan


def launch_stuck(tmp_path, *options):
    """mwccm-deploy of the plan whose blocking instance never ends its configuration,
    returned once that instance is stuck in it."""
    launcher = subprocess.Popen(
        [DEPLOY, with_blocking_instance(tmp_path), *options, "--artifacts", ARTIFACTS,
         "--artifacts", FAULTS, "--wait"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_file(tmp_path / "stuck", launcher)
    return launcher


def test_sigterm_to_the_launcher_in_a_stuck_phase_undoes_everything(tmp_path, no_processes_left):
    process = launch_stuck(tmp_path)
    assert (tmp_path / "hud.ior").exists()  # registered in start_launch, before the stuck phase
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 128 + signal.SIGTERM, process.stderr.read()
    said = process.stderr.read()
    assert "while deploying: undoing it" in said
    assert "terminate called" not in said, said  # no server aborted in the undo
    assert not (tmp_path / "hud.ior").exists(), "a stopped server's registration was left"


def start_node(tmp_path):
    """An mwccm-node of its own, named Avionics, and the node map naming it."""
    node_ior = tmp_path / "node.ior"
    node = subprocess.Popen([PROGRAMS / "mwccm-node", "--name", "Avionics", "--artifacts",
                             ARTIFACTS, "--ior-file", node_ior], cwd=tmp_path,
                            stderr=subprocess.PIPE, text=True)
    wait_for_file(node_ior, node)
    (tmp_path / "nodes.map").write_text(f"Avionics file:{node_ior}\n")
    return node


def deployed_on_own_node(tmp_path):
    """two_processes.config deployed with --state on a node of the test's own (start_node),
    left running: (the node, the state file)."""
    node = start_node(tmp_path)
    state = tmp_path / "deployment.json"
    result = subprocess.run([DEPLOY, PLANS / "two_processes.config", "--nodes",
                             tmp_path / "nodes.map", "--artifacts", ARTIFACTS, "--state", state],
                            cwd=tmp_path, capture_output=True, text=True, timeout=HANG_S)
    assert result.returncode == 0, result.stderr
    return node, state


def test_the_component_servers_of_a_killed_node_end_and_undo_their_registrations(
        tmp_path, no_processes_left):
    # SIGKILL leaves a node no time to stop its servers: each reads the end of the node's
    # lifeline and stops by itself, its registration removed.
    node, state = deployed_on_own_node(tmp_path)
    servers = {pid: Path(f"/proc/{pid}/stat").read_text().split()[21]
               for pid in children_of(node.pid)}
    assert len(servers) == 2 and (tmp_path / "hud.ior").exists()
    node.kill()
    node.wait(timeout=HANG_S)

    def running():
        alive = set()
        for pid, started in servers.items():
            try:
                if Path(f"/proc/{pid}/stat").read_text().split()[21] == started:
                    alive.add(pid)
            except OSError:
                pass
        return alive
    deadline = time.monotonic() + HANG_S
    while running():
        assert time.monotonic() < deadline, f"servers {running()} outlived their node"
        time.sleep(0.05)
    assert not (tmp_path / "hud.ior").exists(), "a server left its registration"


def test_teardown_after_its_node_ended_names_it_and_ends_clean(tmp_path, no_processes_left):
    node, state = deployed_on_own_node(tmp_path)
    node.send_signal(signal.SIGTERM)  # it removes its own part, then exits
    assert node.wait(timeout=HANG_S) == 0, node.stderr.read()
    first = subprocess.run([DEPLOY, "--teardown", "--state", state], capture_output=True,
                           text=True, timeout=HANG_S)
    assert first.returncode == 1, first.stderr
    assert "node 'Avionics' does not answer" in first.stderr, first.stderr
    assert not state.exists()
    second = subprocess.run([DEPLOY, "--teardown", "--state", state], capture_output=True,
                            text=True, timeout=HANG_S)
    assert second.returncode == 0 and "nothing to tear down" in second.stdout, second.stderr


def test_sigterm_to_a_node_in_a_stuck_phase_stops_its_servers(tmp_path, no_processes_left):
    node_ior = tmp_path / "node.ior"
    node = subprocess.Popen(
        [
            PROGRAMS / "mwccm-node",
            "--name",
            "Avionics",
            "--artifacts",
            ARTIFACTS,
            "--artifacts",
            FAULTS,
            "--ior-file",
            node_ior,
        ],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_file(node_ior, node)
    (tmp_path / "nodes.map").write_text(f"Avionics file:{node_ior}\n")
    launcher = launch_stuck(tmp_path, "--nodes", tmp_path / "nodes.map")
    servers = children_of(node.pid)
    assert servers, "the node started no component server"
    node.send_signal(signal.SIGTERM)
    assert node.wait(timeout=60) == 0, node.stderr.read()
    assert not node_ior.exists(), "the node left the IOR file it wrote"
    assert launcher.wait(timeout=60) == 1  # its start phase failed when the servers stopped
    assert "start failed on node 'Avionics'" in launcher.stderr.read()
