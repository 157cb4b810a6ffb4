"""Test hosts (testsupport/testhosts.py, `mwbench testhosts`): network namespaces that this
machine reaches over real SSH, shaped with tc tbf, and removed, even after their
maker is killed outright (`mwbench clean`). netem is asked for, and its absence
said. Needs root and Debian's openssh-server."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import mwbench_exe
from mwbench.drivers import program_path
from testsupport import namespaces, testhosts

WAIT_S = 120

pytestmark = pytest.mark.skipif(testhosts.unavailable() is not None,
                                reason=str(testhosts.unavailable()))


def ours() -> set[str]:
    """The namespaces of this test process (their names carry its pid)."""
    names = namespaces.ip("netns", "list").split()
    return {name for name in names if name.startswith(f"{namespaces.PREFIX}{os.getpid()}-")}


def test_each_host_answers_over_ssh_on_its_own_address_and_all_goes_away():
    with testhosts.ssh_hosts(2) as hosts:
        directory = hosts.directory
        for test_host in hosts.hosts:
            done = hosts.ssh(test_host.name, "ip", "-4", "-o", "addr", "show", "dev",
                             namespaces.INTERFACE, capture_output=True, text=True,
                             timeout=WAIT_S)
            assert done.returncode == 0, done.stderr
            assert f"inet {test_host.address}/24" in done.stdout
            assert test_host.address.startswith("198.19.")
        # Only the key made for them opens them; the host keys were known beforehand.
        refused = subprocess.run(
            ["ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
             "-o", f"UserKnownHostsFile={directory / 'known_hosts'}",
             "-o", "IdentitiesOnly=yes", "-i", "/dev/null", hosts.hosts[0].address, "true"],
            capture_output=True, text=True, timeout=WAIT_S)
        assert refused.returncode == 255 and "Permission denied" in refused.stderr
    assert not ours()
    assert not directory.exists()


def test_mwbench_testhosts_runs_a_command_with_their_inventory_and_passes_its_status():
    done = subprocess.run([mwbench_exe(), "testhosts", "2", "--", "sh", "-c",
                           'cat "$MWBENCH_INVENTORY"; exit 7'],
                          capture_output=True, text=True, timeout=WAIT_S)
    assert done.returncode == 7, done.stderr
    assert "host-1:" in done.stdout and "reach: ssh host-2" in done.stdout


def test_a_killed_maker_leaves_hosts_that_mwbench_clean_removes(tmp_path):
    maker = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom testsupport import testhosts\n"
         "with testhosts.ssh_hosts(2):\n    print('up', flush=True)\n    time.sleep(3600)\n"],
        stdout=subprocess.PIPE, text=True)
    assert maker.stdout.readline() == "up\n"
    pid = maker.pid
    maker.kill()
    maker.wait()
    left = {n for n in namespaces.ip("netns", "list").split()
            if n.startswith(f"{namespaces.PREFIX}{pid}-")}
    assert len(left) == 3  # two hosts and their switch
    assert list(Path(tempfile.gettempdir()).glob(f"{testhosts.DIRECTORY_PREFIX}{pid}-*"))
    environment = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run([mwbench_exe(), "clean"], env=environment, capture_output=True,
                          text=True, timeout=WAIT_S)
    assert done.returncode == 0, done.stderr
    # Test hosts are the machine's: another test's `mwbench clean`, beside this one, may
    # remove the dead maker's hosts first; then this one has nothing of them to name.
    assert f"test host {namespaces.PREFIX}{pid}-" in done.stdout or "nothing left" in done.stdout
    assert not list(Path(tempfile.gettempdir()).glob(f"{testhosts.DIRECTORY_PREFIX}{pid}-*"))
    assert not {n for n in namespaces.ip("netns", "list").split()
                if n.startswith(f"{namespaces.PREFIX}{pid}-")}


def test_the_command_of_a_killed_mwbench_testhosts_ends_too(tmp_path, own_processes):
    # Its COMMAND (an inner `mwbench run`, say) gets SIGTERM when testhosts is killed
    # outright, instead of going on against hosts that are gone.
    marker = tmp_path / "started"
    maker = subprocess.Popen(
        [mwbench_exe(), "testhosts", "1", "--", sys.executable, "-c",
         f"import pathlib, time\npathlib.Path({str(marker)!r}).touch()\ntime.sleep(3600)\n"],
        stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + WAIT_S
    while not marker.exists():
        assert maker.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    (inner,) = {pid for pid, _ in own_processes() if pid != maker.pid
                and Path(f"/proc/{pid}/cmdline").read_bytes().find(str(marker).encode()) > 0}
    maker.kill()
    maker.wait()
    while Path(f"/proc/{inner}").exists() and \
            Path(f"/proc/{inner}/stat").read_text().split()[2] != "Z":
        assert time.monotonic() < deadline, "the command outlived its mwbench testhosts"
        time.sleep(0.05)
    environment = {**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run([mwbench_exe(), "clean"], env=environment, capture_output=True,
                          text=True, timeout=WAIT_S)  # the killed maker's hosts
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not program_path("rawtcp").is_file(), reason="rawtcp is not built")
def test_a_rate_limit_shapes_both_directions_of_every_link(tmp_path):
    """tc tbf at 10 Mbit/s: installed on each host's link both ways, and no cell moves
    more than that (an upper bound, which a slow machine cannot break)."""
    rate_bytes_per_s = 10e6 / 8
    with testhosts.ssh_hosts(2, rate="10mbit") as hosts:
        for test_host in hosts.hosts:
            assert "tbf" in test_host.host.link_shaping()
            assert "rate 10Mbit" in test_host.host.link_shaping()
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "suite: shaped\ndefaults: {launches: 1, warmup: 5, samples: 40, batch: 1, "
            "placement: same-cpu}\n"
            "experiments:\n  - {name: bulk, drivers: [rawtcp], transports: [tcp], "
            "operation: octets, payload_bytes: 65536, "
            "hosts: [{client: host-1, server: host-2}]}\n")
        done = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(tmp_path / "m.db"),
                               "--inventory", str(hosts.inventory)],
                              capture_output=True, text=True, timeout=WAIT_S * 3,
                              env={**os.environ, "MWBENCH_STATE_DIR": str(tmp_path / "s")})
        assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(tmp_path / "m.db") as db:
        throughput, header = db.execute(
            "SELECT throughput_per_s, measurer_header FROM cells").fetchone()
    assert json.loads(header)["payload_bytes"] == 65536
    # Each call carries 64 KiB one way; the bucket's burst (64 kB) lets one call through
    # at once, no more: at most rate / payload calls a second, with room for the burst.
    assert throughput * 65536 <= 1.5 * rate_bytes_per_s


def test_netem_is_asked_for_not_assumed():
    """netem (delay, loss) is not in every kernel: where it is missing, the reason says
    so; where it is there, a delay on a link shows in a round trip."""
    why = namespaces.netem_unavailable()
    if why is not None:
        assert why.startswith("netem is not in this kernel")
        pytest.skip(why)
    with namespaces.hosts(2) as (a, b):
        subprocess.run(["ip", "netns", "exec", a.namespace, "tc", "qdisc", "add", "dev",
                        namespaces.INTERFACE, "root", "netem", "delay", "20ms"], check=True)
        # A connection refused takes a SYN there and a reset back: the delay at least.
        probe = ("import socket, sys, time\nstarted = time.monotonic()\ntry:\n"
                 "    socket.create_connection((sys.argv[1], 9), timeout=10)\n"
                 "except ConnectionRefusedError:\n    print(time.monotonic() - started)\n")
        done = a.run([sys.executable, "-c", probe, b.address], capture_output=True, text=True,
                     timeout=WAIT_S)
        assert float(done.stdout) >= 0.020, done.stderr  # a lower bound: load cannot shorten it


def test_a_signal_to_mwbench_testhosts_removes_its_hosts():
    run = subprocess.Popen([mwbench_exe(), "testhosts", "1", "--", "sleep", "3600"],
                           stderr=subprocess.PIPE, text=True)
    line = run.stderr.readline()
    assert "test hosts host-1 up" in line, line
    run.send_signal(signal.SIGTERM)
    assert run.wait(timeout=WAIT_S) != 0
    leftover = {n for n in namespaces.ip("netns", "list").split()
                if n.startswith(f"{namespaces.PREFIX}{run.pid}-")}
    assert not leftover


def test_mwbench_env_asks_every_host_of_an_inventory(tmp_path):
    with testhosts.ssh_hosts(1) as hosts:
        subnet = hosts.hosts[0].address.rsplit(".", 1)[0]
        inventory = tmp_path / "inventory.yaml"
        inventory.write_text(hosts.inventory.read_text()
                             + f"  ghost:\n    reach: ssh root@{subnet}.99\n")
        done = subprocess.run([mwbench_exe(), "env", "--json", "--inventory", str(inventory)],
                              capture_output=True, text=True, timeout=WAIT_S)
    assert done.returncode == 1, done.stderr  # one host could not be asked
    disclosed = json.loads(done.stdout)
    assert sorted(disclosed) == ["ghost", "host-1", "local"]
    assert disclosed["host-1"]["environment"]["kernel"]["release"] == os.uname().release
    assert disclosed["ghost"]["environment"] is None
    assert disclosed["ghost"]["error"].startswith(f"host ghost (ssh root@{subnet}.99): ssh: ")
