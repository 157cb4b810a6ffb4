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

import pytest
from process_sockets import udp_sockets, wildcard

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).resolve()
PROGRAMS = BUILD / "components" / "server"
DEPLOY = PROGRAMS / "mwccm-deploy"
ARTIFACTS = BUILD / "components" / "basic_sp"
PLANS = REPO / "components" / "basic_sp" / "plans"
TEST_PLANS = Path(__file__).resolve().parent / "plans"
INSPECT = BUILD / "components" / "deployment" / "mwccm-inspect"
DEPLOYED = "mwccm-deploy: deployed"
HANG_S = 120  # how long a test waits for what must happen: only a hang exceeds it


# The node and component server processes, by their command names (15 characters at most).
MWCCM_PROCESSES = ("mwccm-node", "mwccm-component")


def children_of(pid):
    """Every process whose ancestors include `pid`."""
    found, parents = set(), {pid}
    for _ in range(4):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent in parents:
                found.add(int(entry.name))
        parents |= found
    return found


@pytest.fixture
def no_processes_left(own_processes):
    """No node or component server that this test started is still running at its end."""
    yield
    left = own_processes(MWCCM_PROCESSES)
    assert not left, f"processes left behind: {sorted(left)}"


def start_waiting(tmp_path, plan, *extra):
    """mwccm-deploy PLAN --wait, returned once it says it is deployed."""
    process = subprocess.Popen(
        [
            DEPLOY,
            plan,
            "--artifacts",
            ARTIFACTS,
            "--timings",
            tmp_path / "timings.json",
            "--wait",
            *extra,
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()  # blocks until deployed, or until it exits
    if DEPLOYED not in line:
        process.wait(timeout=60)
        raise AssertionError(f"not deployed: {line}{process.stderr.read()}")
    return process


def stop(process):
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0, process.stderr.read()


def hud_updates(tmp_path, ior):
    """A HUD's `updates`, read with mwccm-inspect. The generated BasicSP_HUD.ccd lists only
    the attributes a plan may set: mwccm-inspect is given a copy that lists this one too."""
    interfaces = tmp_path / "inspect"
    if not interfaces.exists():
        interfaces.mkdir()
        ccd = (ARTIFACTS / "BasicSP_HUD.ccd").read_text()
        updates = "<property><name>updates</name><type><kind>tk_ulonglong</kind></type></property>"
        (interfaces / "BasicSP_HUD.ccd").write_text(ccd.replace("<property>", updates +
                                                                "<property>", 1))
    done = subprocess.run([INSPECT, f"hud=file:{ior}", "--interfaces", interfaces],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["hud"]["attributes"]["updates"])


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
    for step in (
        "plan_parsing",
        "node_start",
        "server_creation",
        "container_creation",
        "home_creation",
        "library_load",
        "component_creation",
        "configuration",
        "registration",
        "registration_reference",
        "registration_stringify",
        "registration_publish",
        "connection",
        "activation",
        "total",
        "teardown",
    ):
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


def broken_plan(tmp_path, text_from, text_to, name="broken.config"):
    plan = tmp_path / name
    text = (PLANS / "two_processes.config").read_text()
    assert text_from in text
    plan.write_text(text.replace(text_from, text_to))
    return plan


def deploy_fails(tmp_path, plan, *extra):
    result = subprocess.run(
        [DEPLOY, plan, "--artifacts", ARTIFACTS, "--wait", *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result


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


def test_a_node_that_is_down_fails_with_its_name(tmp_path, no_processes_left):
    node_map = tmp_path / "nodes.map"
    node_map.write_text("# no node listens there\nAvionics corbaloc:iiop:127.0.0.1:9/NodeManager\n")
    result = deploy_fails(tmp_path, PLANS / "two_processes.cdp", "--nodes", node_map)
    assert result.returncode == 1
    assert "failed on node 'Avionics'" in result.stderr
    assert "TRANSIENT" in result.stderr or "COMM_FAILURE" in result.stderr


def test_a_node_map_must_name_every_node(tmp_path, no_processes_left):
    node_map = tmp_path / "nodes.map"
    node_map.write_text("Sensors corbaloc:iiop:127.0.0.1:9/NodeManager\n")
    result = deploy_fails(tmp_path, PLANS / "four_processes_two_nodes.cdp", "--nodes", node_map)
    assert result.returncode == 2
    assert "on node 'Display', which the node map does not name" in result.stderr


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


def test_a_home_whose_create_refuses_fails_start_launch_and_is_undone(tmp_path, no_processes_left):
    result = deploy_fails(
        tmp_path, with_faulty_instance(tmp_path, "Refusing"), "--artifacts", FAULTS
    )
    assert result.returncode == 1
    assert "start_launch failed on node 'Avionics'" in result.stderr
    assert "create component 'fragile'" in result.stderr
    assert "the executor raised CreateFailure" in result.stderr
    assert not (tmp_path / "hud.ior").exists()


def test_a_component_server_that_crashes_mid_assembly_is_named(tmp_path, no_processes_left):
    result = deploy_fails(
        tmp_path, with_faulty_instance(tmp_path, "Crashing"), "--artifacts", FAULTS
    )
    assert result.returncode == 1
    assert "start_launch failed on node 'Avionics'" in result.stderr
    assert "the component server killed by signal 6" in result.stderr


def with_blocking_instance(tmp_path):
    """two_processes plus an instance that never returns from configuration_complete
    (in the `start` phase) once it has written tmp_path/stuck."""
    plan = tmp_path / "blocking.config"
    instance = FAULTY_INSTANCE.format(home="Blocking")
    instance += f'    nl.remedy.it.DnCX11.ConfigProperty marker "{tmp_path / "stuck"}"\n'
    plan.write_text((PLANS / "two_processes.config").read_text() + instance)
    return plan


def wait_for_file(path, process):
    """Until `path` exists, or fail if `process` exits first."""
    while not path.exists():
        assert process.poll() is None, process.stderr.read()
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass


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
