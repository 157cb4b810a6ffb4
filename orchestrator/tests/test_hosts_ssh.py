"""Cells across hosts, over real SSH into test hosts (testsupport/testhosts.py: network
namespaces with an OpenSSH server each): a round trip across two hosts, a fan-out
across three, a host killed during a cell, hosts that cannot be reached, used or
found, and a run stopped or killed outright. After every test, each host runs its
SSH server and nothing else, and no scratch directory is left on any.

A test waits for what it can observe (a process in a host, a file, an exit),
never for a time. Needs root (namespaces) and Debian's openssh-server.
"""

import glob
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import mwbench_exe
from mwbench import paths
from mwbench.drivers import program_path
from mwbench.hosts.inventory import load_inventory
from mwbench.hosts.launcher import HostFailure
from mwbench.hosts.ssh import SshLauncher
from testsupport import namespaces, testhosts

WAIT_S = 120  # for what must happen: only a hang exceeds it
POLL_S = 0.02

pytestmark = [
    pytest.mark.skipif(testhosts.unavailable() is not None,
                       reason=str(testhosts.unavailable())),
    pytest.mark.skipif(not program_path("rawtcp").is_file(), reason="rawtcp is not built"),
]


def left_on(test_host) -> set[int]:
    """The processes of a host other than its SSH server."""
    return test_host.host.pids() - {test_host.server.pid}


def wait_until(condition, what: str):
    deadline = time.monotonic() + WAIT_S
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"not seen within {WAIT_S} s: {what}")
        time.sleep(POLL_S)
    return value


def assert_nothing_left(hosts, dead=()):
    """Every host runs its SSH server alone (sessions end a moment after their client), a
    dead host nothing; no cell's directory is left on a live one (in each host's TMPDIR: a
    dead host's goes with the next session there)."""
    for test_host in hosts.hosts:
        if test_host.name in dead:
            assert not test_host.host.pids(), f"{test_host.name} runs {test_host.host.pids()}"
            continue
        wait_until(lambda h=test_host: not left_on(h),
                   f"{test_host.name} running its SSH server alone")
        assert not glob.glob(f"{hosts.directory}/{test_host.name}.tmp/mwbench-host-cell-*")


@pytest.fixture
def hosts():
    with testhosts.ssh_hosts(3) as made:
        yield made
        assert_nothing_left(made)


def run_mwbench(tmp_path, spec: str, inventory: Path, *options, wait=True, scratch=None):
    """`mwbench run` of `spec`; with `scratch`, the run's temporary directories are made
    there (TMPDIR), so that the test sees only its own."""
    (tmp_path / "spec.yaml").write_text(spec)
    command = [mwbench_exe(), "run", str(tmp_path / "spec.yaml"), "--db",
               str(tmp_path / "m.db"), "--inventory", str(inventory), *options]
    environment = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state")}
    if scratch is not None:
        environment["TMPDIR"] = str(scratch)
    if not wait:
        return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
    return subprocess.run(command, env=environment, capture_output=True, text=True,
                          timeout=WAIT_S * 5)


def stored(tmp_path, query: str) -> list[sqlite3.Row]:
    with sqlite3.connect(tmp_path / "m.db") as db:
        db.row_factory = sqlite3.Row
        return db.execute(query).fetchall()


def cells(tmp_path):
    return stored(tmp_path, "SELECT experiment, hosts, status, error FROM cells ORDER BY id")


SPEC = """\
suite: hosts
defaults: {{launches: 1, warmup: 100, samples: {samples}, placement: same-cpu, timeout_s: 300}}
experiments:
{experiments}"""


def experiment(name, hosts, operation="roundtrip", extra="", samples=""):
    return (f"  - {{name: {name}, drivers: [rawtcp], transports: [tcp], operation: {operation}, "
            f"hosts: [{hosts}]{extra}{samples}}}\n")


def test_arguments_reach_the_host_unchanged_and_nothing_else_runs(hosts, tmp_path):
    launcher = SshLauncher(load_inventory(hosts.inventory)["host-1"])
    hostile = ["a b", "$(touch /tmp/mwbench-pwned)", "'", '"', "`id`", ";", "*", "\\", "\n"]
    try:
        with launcher.place(False, tmp_path, tmp_path) as place:
            child = place.start("printf", ["printf", "%s|", *hostile], tmp_path)
            assert child.wait(WAIT_S) == 0, child.stderr_tail()
            assert child.stdout_path.read_text() == "|".join(hostile) + "|"
            # In host-1's TMPDIR, which the test hosts' SSH servers set (testsupport/testhosts.py).
            assert str(place.scratch).startswith(
                f"{hosts.directory}/host-1.tmp/mwbench-host-cell-")
            place.write(place.scratch / "x y", b"endpoint\n")
            assert place.read(place.scratch / "x y") == b"endpoint\n"
    finally:
        launcher.close()
    assert not Path("/tmp/mwbench-pwned").exists()


def test_a_round_trip_across_two_hosts(hosts, tmp_path):
    done = run_mwbench(tmp_path, SPEC.format(samples=2000, experiments=experiment(
        "across", "{client: host-1, server: host-2}")), hosts.inventory)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [tuple(row) for row in cells(tmp_path)] == [
        ("across", "client=host-1 server=host-2", "ok", None)]
    [run] = stored(tmp_path, "SELECT hosts FROM runs")
    disclosed = json.loads(run["hosts"])
    assert sorted(disclosed) == ["host-1", "host-2"]
    for name in ("host-1", "host-2"):
        entry = disclosed[name]
        assert entry["reach"] == f"ssh {name}" and entry["error"] is None
        assert entry["bind"] == hosts.by_name(name).address
        assert entry["environment"]["kernel"]["release"] == os.uname().release


def test_a_fanout_across_three_hosts(hosts, tmp_path):
    fanout = experiment("fanout", "{client: host-1, subscribers: [host-1, host-2, host-3]}",
                        operation="fanout",
                        extra=", subscribers: 3, subscriber_processes: each")
    done = run_mwbench(tmp_path, SPEC.format(samples=500, experiments=fanout), hosts.inventory)
    assert done.returncode == 0, done.stdout + done.stderr
    [row] = stored(tmp_path, "SELECT status, server_header FROM cells")
    header = json.loads(row["server_header"])
    assert row["status"] == "ok"
    assert len(header["processes"]) == 3  # a subscriber process on each host
    assert all(count > 0 for count in header["fanout"]["events_received"])


def test_hosts_that_cannot_be_reached_used_or_found_fail_their_cells_naming_them(
        hosts, tmp_path):
    """An address nobody answers, a key the host refuses, a host without the build: each
    fails its own cell, naming the host and what went wrong; the run goes on."""
    subnet = hosts.hosts[0].address.rsplit(".", 1)[0]
    other_key = tmp_path / "other_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other_key],
                   check=True)
    config = hosts.ssh_config.read_text().replace(str(hosts.directory / "client_key"),
                                                  str(other_key))
    (tmp_path / "other_config").write_text(config)
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(hosts.inventory.read_text() + f"""\
  ghost:
    reach: ssh root@{subnet}.99
    ssh_config: {hosts.ssh_config}
  wrong-key:
    reach: ssh host-1
    ssh_config: {tmp_path / 'other_config'}
  no-build:
    reach: ssh host-2
    ssh_config: {hosts.ssh_config}
    build: /nonexistent/build
""")
    experiments = "".join(experiment(name, name) for name in
                          ("ghost", "wrong-key", "no-build", "host-3"))
    done = run_mwbench(tmp_path, SPEC.format(samples=500, experiments=experiments), inventory)
    assert done.returncode == 1, done.stdout + done.stderr
    rows = {row["experiment"]: row for row in cells(tmp_path)}
    assert rows["host-3"]["status"] == "ok"
    assert rows["ghost"]["error"].startswith(f"host ghost (ssh root@{subnet}.99): ssh: "
                                             f"connect to host {subnet}.99 port 22")
    assert rows["wrong-key"]["error"].startswith("host wrong-key (ssh host-1): ")
    assert "Permission denied (publickey)" in rows["wrong-key"]["error"]
    assert rows["no-build"]["error"].startswith(
        "host no-build (ssh host-2) has no mwbench build: /nonexistent/build/drivers/rawtcp/")
    [run] = stored(tmp_path, "SELECT hosts FROM runs")
    disclosed = json.loads(run["hosts"])
    assert disclosed["ghost"]["environment"] is None
    assert "connect to host" in disclosed["ghost"]["error"]


def test_a_host_killed_during_a_cell_fails_that_cell_naming_it(hosts, tmp_path):
    spec = SPEC.format(samples=1000, experiments=(
        experiment("dies", "{client: host-1, server: host-2}", samples=", samples: 100000000")
        + experiment("after", "{client: host-1, server: host-3}")))
    run = run_mwbench(tmp_path, spec, hosts.inventory, wait=False)
    host_1, host_2 = hosts.by_name("host-1"), hosts.by_name("host-2")
    try:
        wait_until(lambda: any("--role client" in _command_line(pid)
                               for pid in left_on(host_1)), "the client running on host-1")
        host_2.host.kill_all()  # its SSH server, sessions and driver: the host is gone
    # (its cell directory stays in its TMPDIR, until the next session on it)
        output, _ = run.communicate(timeout=WAIT_S * 3)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 1, output
    rows = {row["experiment"]: row for row in cells(tmp_path)}
    assert rows["after"]["status"] == "ok", rows["after"]["error"]
    assert rows["dies"]["status"] == "failed"
    assert "host host-2 (ssh host-2): ssh: connect to host" in rows["dies"]["error"]
    hosts.hosts.remove(host_2)  # dead: nothing of it may run (checked below)
    assert not host_2.host.pids()


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_a_run_stopped_or_killed_leaves_nothing_on_its_hosts(hosts, tmp_path, how):
    """Ctrl-C stops the cell's processes on every host; SIGKILL leaves the hosts to end
    them, as each sees its connection close, and `mwbench clean` ends what it left here."""
    spec = SPEC.format(samples=1000, experiments=experiment(
        "long", "{client: host-1, server: host-2}", samples=", samples: 100000000"))
    host_1 = hosts.by_name("host-1")
    scratch = stop_once_running(tmp_path, spec, hosts, how, lambda: any(
        "--role client" in _command_line(pid) for pid in left_on(host_1)),
        "the client running on host-1")
    try:
        assert not list(scratch.glob("mwbench-ssh-*")), "the run's ssh control directory was left"
    finally:
        shutil.rmtree(scratch)


def stop_once_running(tmp_path, spec, hosts, how, running, what):
    """A run of `spec` in the background, sent signal `how` once `running()`, then `mwbench
    clean` (which ends what a run killed outright left here): nothing of it may be left on
    any host."""
    # Its own TMPDIR, short (an ssh control socket's path has at most 107 bytes): the
    # run's scratch, and what `mwbench clean` looks at, are this test's alone.
    scratch = Path(tempfile.mkdtemp(prefix="mwb-"))
    run = run_mwbench(tmp_path, spec, hosts.inventory, wait=False, scratch=scratch)
    try:
        def started():
            assert run.poll() is None, run.communicate()[0]
            return running()
        wait_until(started, what)
        os.kill(run.pid, how)
        run.wait(timeout=WAIT_S)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    if how != signal.SIGKILL:
        assert run.returncode == 128 + how
    environment = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state"),
                   "TMPDIR": str(scratch)}
    clean = subprocess.run([mwbench_exe(), "clean"], env=environment, capture_output=True,
                           text=True, timeout=WAIT_S)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert_nothing_left(hosts)
    return scratch


@pytest.mark.skipif(not program_path("deploy").is_file(), reason="deploy is not built")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "kill-9"])
def test_a_deployment_a_cell_made_on_a_host_ends_with_the_run(hosts, tmp_path, how):
    """The deploy driver starts a node and two component servers on its host, each in a
    process group of its own: a stop, or the connection's end, ends them all there."""
    spec = SPEC.format(samples=10000000, experiments=(
        "  - {name: long, drivers: [deploy], modes: [collocated], operation: tick_to_display,"
        " hosts: [{client: host-1}], options: {plan: [basic_sp_two_processes],"
        " hertz: [1000]}}\n"))
    host_1 = hosts.by_name("host-1")
    scratch = stop_once_running(tmp_path, spec, hosts, how, lambda: sum(
        "mwccm-component-server" in _command_line(pid) for pid in left_on(host_1)) == 2,
        "the two component servers running on host-1")
    shutil.rmtree(scratch)


def test_mwbench_clean_removes_dead_sessions_cell_directories_on_every_host(hosts, tmp_path):
    # A session killed with its host cannot remove its cell directory; `mwbench clean
    # --inventory` removes those of dead sessions on each host (a live one's stays).
    dead = Path(hosts.directory) / "host-2.tmp" / "mwbench-host-cell-4194303-deadbeef"
    dead.mkdir(parents=True)
    (dead / "endpoint").write_text("x\n")
    live = Path(hosts.directory) / "host-3.tmp" / f"mwbench-host-cell-{os.getpid()}-alive000"
    live.mkdir(parents=True)
    environment = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state")}
    clean = subprocess.run([mwbench_exe(), "clean", "--inventory", str(hosts.inventory)],
                           env=environment, capture_output=True, text=True, timeout=WAIT_S)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert f"removed: {dead} on host host-2" in clean.stdout, clean.stdout
    assert not dead.exists() and live.exists()
    live.rmdir()


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_a_host_that_does_not_answer_is_a_host_failure(hosts, tmp_path):
    inventory = load_inventory(hosts.inventory)
    host_3 = hosts.by_name("host-3")
    host_3.host.kill_all()
    hosts.hosts.remove(host_3)
    launcher = SshLauncher(inventory["host-3"])
    try:
        with pytest.raises(HostFailure, match=r"^host host-3 \(ssh host-3\): ssh: connect to "):
            launcher.environment()
    finally:
        launcher.close()


def test_a_round_trip_across_two_network_namespaces_without_ssh(tmp_path):
    """The `netns` launcher: processes in namespaces of this machine, files its own."""
    with namespaces.hosts(2) as (a, b):
        inventory = tmp_path / "inventory.yaml"
        inventory.write_text("hosts:\n" + "".join(
            f"  {name}:\n    reach: netns {host.namespace}\n"
            f"    build: {paths.build_dir().resolve()}\n"
            f"    bind: {host.address}\n" for name, host in (("a", a), ("b", b))))
        done = run_mwbench(tmp_path, SPEC.format(samples=500, experiments=experiment(
            "netns", "{client: a, server: b}")), inventory)
        assert done.returncode == 0, done.stdout + done.stderr
        assert not a.pids() and not b.pids()
    assert [tuple(row) for row in cells(tmp_path)] == [
        ("netns", "client=a server=b", "ok", None)]


@pytest.mark.skipif(not program_path("iceoryx").is_file() or shutil.which("iox-roudi") is None,
                    reason="iceoryx or its RouDi is missing")
@pytest.mark.once_per_machine  # RouDi (conftest.py)
def test_a_daemon_runs_on_the_host_of_the_processes_that_use_it(hosts, tmp_path):
    """iceoryx's RouDi started, checked and stopped through the SSH launcher on host-2,
    where the cell's server and client run; its shared-memory transport is skipped
    across hosts (host_local)."""
    spec = SPEC.format(samples=500, experiments=(
        "  - {name: shm, drivers: [iceoryx], transports: [shm], operation: roundtrip, "
        "hosts: [host-2, {client: host-1, server: host-2}]}\n"))
    done = run_mwbench(tmp_path, spec, hosts.inventory)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "iceoryx's transport shm cannot cross hosts" in done.stdout
    [row] = stored(tmp_path, "SELECT hosts, status, daemon FROM cells")
    assert (row["hosts"], row["status"]) == ("host-2", "ok")
    assert json.loads(row["daemon"])["program"] == "iox-roudi"
