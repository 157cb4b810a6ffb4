"""What mwccm-deploy reads, hostile or mistaken (node maps, references, state files that
are no files, not UTF-8, too long), each refused at once in one short line; and a DDS plan
that binds loopback only.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests
"""

import os
import signal
import subprocess
from pathlib import Path

import deployment_programs
import pytest
from deployment_programs import (
    ARTIFACTS,
    BUILD,
    DEPLOY,
    HANG_S,
    PLANS,
    children_of,
    deploy_fails,
    start_waiting,
    stop,
)
from process_sockets import udp_sockets, wildcard

# The fixture, for the tests below (a fixture is found by its name in the module).
no_processes_left = deployment_programs.no_processes_left


# What mwccm-deploy reads, hostile or mistaken: each refused at once (exit 2), by what it is,
# in one short line, nothing started. The timeouts guard against a hang only.
def one_line_refusal(result, refusal):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and refusal in lines[0], result.stderr[:2000]
    assert len(lines[0]) < 300, lines[0][:2000]


def test_a_node_map_that_is_no_file_is_refused_at_once(tmp_path, no_processes_left):
    fifo = tmp_path / "nodes.fifo"
    os.mkfifo(fifo)  # nothing writes to it: opening it to read would block
    sparse = tmp_path / "huge.map"
    sparse.touch()
    os.truncate(sparse, 20 << 20)
    for node_map, refusal in (
            ("/dev/zero", "/dev/zero: is a character device, not a regular file"),
            (fifo, f"{fifo}: is a FIFO, not a regular file"),
            (tmp_path, f"{tmp_path}: is a directory, not a regular file"),
            (sparse, f"{sparse}: is 20971520 bytes; a node map is at most 1 MiB")):
        one_line_refusal(deploy_fails(tmp_path, PLANS / "two_processes.cdp", "--nodes", node_map),
                         refusal)


def test_a_node_map_that_is_not_utf8_is_refused_with_its_line(tmp_path, no_processes_left):
    node_map = tmp_path / "nodes.map"
    node_map.write_bytes(b"# nodes\nAvionics\xff corbaloc:iiop:127.0.0.1:9/NodeManager\n")
    one_line_refusal(deploy_fails(tmp_path, PLANS / "two_processes.cdp", "--nodes", node_map),
                     f"{node_map}:2: invalid UTF-8 (byte 0xFF)")


def test_a_long_node_name_in_a_map_makes_a_short_error_line(tmp_path, no_processes_left):
    node_map = tmp_path / "nodes.map"
    node_map.write_text("N" * 900_000 + " corbaloc:iiop:127.0.0.1:9/NodeManager\n")
    result = deploy_fails(tmp_path, PLANS / "two_processes.cdp", "--nodes", node_map)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 4, result.stderr[:2000]  # one per instance on the node
    for line in lines:
        assert "which the node map does not name (it names: 'NNN" in line, line[:2000]
        assert line.endswith("…' (900000 bytes))") and len(line) < 300, line[:2000]


def test_a_file_reference_that_is_no_ior_file_is_refused_at_once(tmp_path, no_processes_left):
    node_map = tmp_path / "nodes.map"
    node_map.write_text("Avionics file:///dev/zero\n")
    one_line_refusal(deploy_fails(tmp_path, PLANS / "two_processes.cdp", "--nodes", node_map),
                     f"{node_map}:1: node 'Avionics': /dev/zero: is a character device")


def test_sigterm_ends_a_launcher_given_a_fifo_as_its_node_map(tmp_path, no_processes_left):
    """Before, it blocked opening the FIFO and stayed there after SIGTERM. Now it
    never opens it: whichever comes first, the refusal or the signal, it ends."""
    fifo = tmp_path / "nodes.fifo"
    os.mkfifo(fifo)
    launcher = subprocess.Popen([DEPLOY, PLANS / "two_processes.cdp", "--artifacts", ARTIFACTS,
                                 "--nodes", fifo, "--wait"], cwd=tmp_path,
                                stderr=subprocess.PIPE, text=True)
    launcher.send_signal(signal.SIGTERM)
    status = launcher.wait(timeout=HANG_S)
    assert status in (2, 128 + signal.SIGTERM, -signal.SIGTERM), launcher.stderr.read()


def test_a_state_file_that_is_no_file_is_refused(tmp_path, no_processes_left):
    fifo = tmp_path / "state.fifo"
    os.mkfifo(fifo)
    result = subprocess.run([DEPLOY, "--teardown", "--state", fifo], capture_output=True,
                            text=True, timeout=HANG_S)
    one_line_refusal(result, f"{fifo}: is a FIFO, not a regular file")
    # Written, a FIFO would block the launcher once deployed: refused before anything starts.
    result = subprocess.run([DEPLOY, PLANS / "two_processes.cdp", "--artifacts", ARTIFACTS,
                             "--state", fifo], cwd=tmp_path, capture_output=True, text=True,
                            timeout=HANG_S)
    one_line_refusal(result, f"mwccm-deploy: --state {fifo}: is a FIFO, not a regular file")
    not_json = tmp_path / "state.json"
    not_json.write_text("{" * 1000)
    result = subprocess.run([DEPLOY, "--teardown", "--state", not_json], capture_output=True,
                            text=True, timeout=HANG_S)
    one_line_refusal(result, f"{not_json}: not a state mwccm-deploy wrote")


@pytest.mark.skipif(not (BUILD / "components" / "basic_sp" / "basic_sp_one_process_dds").exists(),
                    reason="this mwccm was built without Cyclone DDS")
def test_a_dds_plan_binds_loopback_only(tmp_path, no_processes_left):
    """Cyclone DDS 0.10 binds its receive sockets to every interface whatever its
    configuration names: the component servers keep them on the plan's channel address
    (loopback by default), as servers bind to loopback unless told otherwise."""
    process = start_waiting(tmp_path, PLANS / "two_processes_dds.cdp")
    try:
        servers = [pid for pid in children_of(process.pid)
                   if Path(f"/proc/{pid}/comm").read_text().strip() == "mwccm-component"]
        assert len(servers) == 2
        for pid in servers:
            addresses = udp_sockets(pid)
            assert addresses, f"server {pid} has no UDP socket: is it on DDS?"
            assert not wildcard(addresses), f"server {pid} binds every interface: {addresses}"
    finally:
        stop(process)
