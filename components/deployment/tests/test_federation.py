"""Event channels federated between hosts: Basic SP deployed over two nodes, each
in a network namespace of its own (testsupport/namespaces.py), the GPS's events crossing
the link through the channels' gateways (docs/events.md section 4); and a
multicast interface a host cannot use refused, naming it, with nothing left.

Run as root after building:
    MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests/test_federation.py
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from testsupport import namespaces

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).resolve()
PROGRAMS = BUILD / "components" / "server"
INSPECT = BUILD / "components" / "deployment" / "mwccm-inspect"
ARTIFACTS = BUILD / "components" / "basic_sp"
PLAN = Path(__file__).resolve().parent / "plans" / "two_namespaces.config"
GROUP = "239.255.18.1"  # the plan's mwccm.Channel.MulticastGroup
HANG_S = 120  # how long a test waits for what must happen: only a hang exceeds it
UPDATES = 40  # HUD updates to see before tearing down

pytestmark = pytest.mark.skipif(
    namespaces.unavailable() is not None, reason=str(namespaces.unavailable())
)


@pytest.fixture
def hosts():
    """The Sensors host (198.18.0.1) and the Display host (198.18.0.2); a test
    must have stopped everything it started in them."""
    with namespaces.hosts(2) as pair:
        yield pair
        left = {host.namespace: host.pids() for host in pair if host.pids()}
    assert not left, f"processes left behind: {left}"


def wait_until(condition, process, what, output):
    """Until condition() holds; fails, with what `process` wrote to `output`, if it
    exits first, or after HANG_S."""
    deadline = time.monotonic() + HANG_S
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what}: not seen; {process.args} says:\n{output.read_text()}")
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass


def stop(process):
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=HANG_S) == 0, f"{process.args} exited {process.returncode}"


@pytest.fixture
def nodes(hosts, tmp_path):
    """mwccm-node Sensors in the first host and Display in the second, each
    serving IIOP (its component servers too) on its host's address, named in
    tmp_path/nodes.map; stopped afterwards, which stops their servers."""
    started, lines = [], []
    for name, host in zip(("Sensors", "Display"), hosts, strict=True):
        ior, output = tmp_path / f"{name}.ior", tmp_path / f"{name}.out"
        with output.open("w") as stderr:
            node = host.start(
                [PROGRAMS / "mwccm-node", "--name", name, "--artifacts", ARTIFACTS,
                 "--endpoint", f"giop:tcp:{host.address}:0", "--ior-file", ior],
                cwd=tmp_path,  # the component servers' too: the HUD writes hud.ior here
                stderr=stderr,
            )
        wait_until(ior.exists, node, f"node {name}'s IOR", output)
        started.append(node)
        lines.append(f"{name} file:{ior}\n")
    (tmp_path / "nodes.map").write_text("".join(lines))
    yield started
    for node in started:
        stop(node)
    for name in ("Sensors", "Display"):  # a sanitizer's report, a component server's too
        output = (tmp_path / f"{name}.out").read_text()
        assert "Sanitizer" not in output, f"node {name} or its servers:\n{output}"


def plan_with(tmp_path, gateway, replacements=()):
    """two_namespaces.config with the GPS's events through `gateway`."""
    text = PLAN.read_text()
    for old, new in [('gateway "udp"', f'gateway "{gateway}"'), *replacements]:
        assert old in text, old
        text = text.replace(old, new)
    plan = tmp_path / f"{gateway}.config"
    plan.write_text(text)
    return plan


def deploy_command(tmp_path, *arguments):
    return [PROGRAMS / "mwccm-deploy", *arguments, "--nodes", tmp_path / "nodes.map",
            "--artifacts", ARTIFACTS]


def hud_updates(display, tmp_path, ior="hud.ior"):
    """The HUD's `updates`, read by mwccm-inspect from the Display host. The
    generated BasicSP_HUD.ccd lists only the attributes a plan may set, so
    mwccm-inspect is given a copy that lists this readonly one too."""
    interfaces = tmp_path / "inspect"
    if not interfaces.exists():
        interfaces.mkdir()
        ccd = (ARTIFACTS / "BasicSP_HUD.ccd").read_text()
        updates = "<property><name>updates</name><type><kind>tk_ulonglong</kind></type></property>"
        ccd = ccd.replace("<property>", updates + "<property>", 1)
        (interfaces / "BasicSP_HUD.ccd").write_text(ccd)
    done = display.run(
        [INSPECT, f"hud=file:{tmp_path / ior}", "--interfaces", interfaces],
        capture_output=True, text=True, timeout=HANG_S,
    )
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["hud"]["attributes"]["updates"])


def udp_sockets(host):
    """The local ADDRESS:PORT of every UDP socket in `host`."""
    done = host.run(["ss", "-Huan"], capture_output=True, text=True, check=True)
    return [line.split()[3] for line in done.stdout.splitlines()]


@pytest.mark.parametrize(
    ("gateway", "receiver"),
    [
        ("udp", "198.18.0.2:"),  # the Display's channel receives on its host's address
        ("multicast", f"{GROUP}:45018"),  # and joins the group on the host's veth
        ("iiop", None),  # a CORBA object: no UDP socket at all
    ],
    ids=["udp", "multicast", "iiop"],
)
def test_basic_sp_ticks_across_two_hosts(tmp_path, hosts, nodes, gateway, receiver):
    sensors, display = hosts
    log, output = tmp_path / "hud.log", tmp_path / "deploy.out"
    with output.open("w") as out:
        launcher = sensors.start(
            deploy_command(tmp_path, plan_with(tmp_path, gateway), "--wait",
                           "--set", "rate_gen.hertz=200", "--set", f"hud.log_file={log}"),
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
        )
    deployed = "mwccm-deploy: deployed"
    wait_until(lambda: deployed in output.read_text(), launcher, deployed, output)
    bound = udp_sockets(display)
    if receiver:
        assert any(address.startswith(receiver) for address in bound), bound
    else:
        assert not bound, bound
    if gateway == "multicast":
        assert GROUP in display.ip("maddr", "show", "dev", namespaces.INTERFACE)
    wait_until(lambda: hud_updates(display, tmp_path) >= UPDATES, launcher, "HUD updates", output)
    stop(launcher)  # the HUD writes its log when passivated
    assert "Sanitizer" not in output.read_text()

    # One line per update, as the HUD numbers them: from 1, none missing or repeated,
    # in order; and no event twice (ticks_shown_once).
    lines = [line.split() for line in log.read_text().splitlines()]
    assert len(lines) >= UPDATES
    assert [int(update) for update, _, _ in lines] == list(range(1, len(lines) + 1))
    assert all(int(latency) > 0 for _, latency, _ in lines)
    assert_each_event_once([int(tick) for _, _, tick in lines])


def assert_each_event_once(ticks):
    """The ticks a HUD showed, one per update. It pulls the latest position, so a tick
    may show twice (the GPS moved on before the pull), but the ticks never go back, and
    each update is another event: never more updates than ticks published by the last."""
    assert ticks == sorted(ticks), "the HUD showed an older tick after a newer one"
    assert len(ticks) <= ticks[-1], f"{len(ticks)} updates for {ticks[-1]} ticks: events twice"



@pytest.mark.parametrize("delivery", ["dds", "zmq"])
def test_basic_sp_ticks_across_two_hosts_through_a_strategy_of_its_own(tmp_path, hosts, nodes,
                                                                      delivery):
    # The GPS's events through a DDS topic (each participant discovers the other by
    # unicast, at the other locality's channel address: no multicast between hosts),
    # or through ZeroMQ (the Display's SUB socket bound to its channel address).
    if delivery == "dds" and not (ARTIFACTS / "basic_sp_one_process_dds").exists():
        pytest.skip("this mwccm was built without Cyclone DDS")
    sensors, display = hosts
    log, output = tmp_path / "hud.log", tmp_path / "deploy.out"
    dds = plan_with(tmp_path, "udp", [(
        'mwccm.EventDelivery "channel"\n'
        '      nl.remedy.it.DnCX11.Property mwccm.EventDelivery.gateway "udp"',
        f'mwccm.EventDelivery "{delivery}"')])
    with output.open("w") as out:
        launcher = sensors.start(
            deploy_command(tmp_path, dds, "--wait", "--set", "rate_gen.hertz=200",
                           "--set", f"hud.log_file={log}"),
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
        )
    deployed = "mwccm-deploy: deployed"
    wait_until(lambda: deployed in output.read_text(), launcher, deployed, output)
    wait_until(lambda: hud_updates(display, tmp_path) >= UPDATES, launcher, "HUD updates", output)
    stop(launcher)
    lines = [line.split() for line in log.read_text().splitlines()]
    assert len(lines) >= UPDATES
    assert_each_event_once([int(tick) for _, _, tick in lines])


def test_one_source_into_one_host_by_two_gateways_reaches_each_sink_once(tmp_path, hosts,
                                                                         nodes):
    sensors, display = hosts
    logs = {via: tmp_path / f"hud_{via}.log" for via in ("udp", "multicast")}
    output = tmp_path / "deploy.out"
    settings = [arg for via, log in logs.items() for arg in ("--set", f"hud_{via}.log_file={log}")]
    with output.open("w") as out:
        launcher = sensors.start(
            deploy_command(tmp_path, PLAN.with_name("two_namespaces_two_gateways.config"),
                           "--wait", "--set", "rate_gen.hertz=200", *settings),
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
        )
    deployed = "mwccm-deploy: deployed"
    wait_until(lambda: deployed in output.read_text(), launcher, deployed, output)
    for via in logs:
        wait_until(lambda via=via: hud_updates(display, tmp_path, f"hud_{via}.ior") >= UPDATES,
                   launcher, f"updates of hud_{via}", output)
    stop(launcher)
    for via, log in logs.items():
        ticks = [int(line.split()[2]) for line in log.read_text().splitlines()]
        assert len(ticks) >= UPDATES, via
        assert_each_event_once(ticks)
    said = output.read_text()
    assert ", from gps.ready: received " in said and "duplicates 0," not in said.split(
        ", from gps.ready: ")[1].split("\n")[0], said


# Where an interface a host lacks shows: the receiving server joins the group
# as it starts, the sending one picks the interface as it routes to the group.
PHASE = {"Display": "start_launch", "Sensors": "finish_launch"}


@pytest.mark.parametrize(
    ("host", "interface"),
    [
        ("Display", "198.18.0.1"),  # the other host's address
        ("Sensors", "198.18.0.2"),
        ("Display", "multicast off"),  # its own veth, with multicast switched off
    ],
    ids=["display-on-the-other-host", "sensors-on-the-other-host", "multicast-off"],
)
def test_a_multicast_interface_a_host_cannot_use_is_refused_naming_it(
    tmp_path, hosts, nodes, host, interface
):
    sensors, display = hosts
    own = {"Sensors": sensors, "Display": display}[host].address
    if interface == "multicast off":
        display.ip("link", "set", "dev", namespaces.INTERFACE, "multicast", "off")
        interface = own
    plan = plan_with(tmp_path, "multicast", [(f'Interface "{own}"', f'Interface "{interface}"')])
    state = tmp_path / "state.json"
    done = sensors.run(deploy_command(tmp_path, plan, "--state", state),
                       cwd=tmp_path, capture_output=True, text=True, timeout=HANG_S)
    if done.returncode == 0:  # deployed: undone before failing
        sensors.run([PROGRAMS / "mwccm-deploy", "--teardown", "--state", state], timeout=HANG_S)
    assert done.returncode == 1 and "Sanitizer" not in done.stderr, done.stdout + done.stderr
    assert f"{PHASE[host]} failed on node '{host}'" in done.stderr, done.stderr
    assert f"interface {interface}:" in done.stderr, done.stderr
    # Undone: each node is alone in its host, every component server gone.
    for each, node in zip(hosts, nodes, strict=True):
        assert each.pids() == {node.pid}
