"""The driver contract (docs/driver-contract.md), checked the same way on every driver.

What every driver must do whatever its middleware: describe itself, refuse a
bad argument with exit status 2 and one line, serve until SIGTERM and then
write its header, keep the samples it measured when a signal stops it, give up
within --timeout when no server appears, honour the harness's injected fault,
listen on its --bind address only and be reached there from another address,
and, if it offers `fanout`, deliver every event to every subscriber across
processes. A new driver gets these tests by existing; its own test file holds
what only it does (its transports, options and middleware).

A driver whose middleware needs a daemon (iceoryx's RouDi) gets one for each
test, started and cleaned as its --describe says (testsupport/daemons.py).
"""

import json
import os
import signal
import stat
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    REPO,
    Driver,
    fanout_subscribers,
    measuring,
    private_partition,
    publish_to,
    read_result,
    run_fanout,
    wait_for_file_or_exit,
    wait_until_measuring,
)
from proc_view import (
    inet_sockets,
    is_local,
    listening_sockets,
    process_tree,
)

from testsupport import daemons


def _driver_folders():
    """As `mwbench list` finds them: folders whose CMakeLists.txt builds mwbench-driver-X."""
    return sorted(folder.name for folder in (REPO / "drivers").iterdir()
                  if (folder / "CMakeLists.txt").is_file()
                  and f"mwbench-driver-{folder.name}" in (folder / "CMakeLists.txt").read_text())


DRIVERS = {name: Driver(name) for name in _driver_folders()}
# Drivers whose middleware uses what the machine has once: RouDi, Fast DDS's /dev/shm.
ONCE_PER_MACHINE = {"iceoryx", "fastdds"}


def each_driver(*marks):
    return pytest.mark.parametrize("driver", [
        pytest.param(d, id=name, marks=[
            d.built_or_skipped(), *marks,
            *([pytest.mark.once_per_machine] if name in ONCE_PER_MACHINE else [])])
        for name, d in DRIVERS.items()])


def describe(driver):
    out = subprocess.run([str(driver.program), "--describe"], capture_output=True, text=True,
                         check=True, timeout=HANG_S)
    return json.loads(out.stdout)


@contextmanager
def daemon_of(driver, tmp_path):
    """The daemon the driver declares, run as its --describe says (testsupport/daemons.py)."""
    try:
        with daemons.running(describe(driver).get("daemon"), tmp_path):
            yield
    except daemons.DaemonBusy as busy:
        pytest.skip(str(busy))  # only one RouDi per machine: another test's


def remote_cell(driver):
    """The plainest remote cell the driver has: roundtrip over its first transport."""
    d = describe(driver)
    return ["--operation", "roundtrip", "--transport", d["modes"]["remote"][0],
            "--payload-bytes", "0"]


@each_driver()
def test_describe_follows_the_contract(driver):
    d = describe(driver)
    assert d["contract"] == 1 and d["driver"] == driver.name
    assert d["middleware"] and d["middleware_version"]
    assert "roundtrip" in d["operations"]
    assert all(set(op) >= {"payload"} and isinstance(op["payload"], bool)
               for op in d["operations"].values())
    assert set(d["modes"]) <= {"remote", "collocated"} and d["modes"]["remote"]
    assert d["modes"].get("collocated", ["inproc"]) == ["inproc"]
    assert all(isinstance(help, str) and help for help in d["options"].values())
    for bound in ("max_threads", "max_servants", "max_subscribers"):
        assert d.get(bound, 1) >= 1
    if "fanout" in d["operations"]:
        assert d["operations"]["fanout"]["payload"] is True
    if "host_local" in d:  # the remote transports that cannot cross hosts
        host_local = d["host_local"]
        assert isinstance(host_local, list) and host_local, host_local
        assert len(set(host_local)) == len(host_local), host_local
        assert set(host_local) <= set(d["modes"]["remote"]), host_local


@each_driver()
def test_an_unknown_option_is_exit_2_and_one_line(driver, tmp_path):
    proc = subprocess.run(
        [str(driver.program), "--role", "client", *remote_cell(driver), "--endpoint-file",
         str(tmp_path / "endpoint"), "--option", "no_such_key=1"],
        capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"mwbench-driver-{driver.name}: error: --option no_such_key")
    assert proc.stderr.count("\n") == 1


@each_driver()
def test_a_file_to_write_that_is_not_a_regular_file_is_exit_2(driver, tmp_path):
    """A driver writes PATH.tmp and renames it to PATH, which would replace a device
    (`--output /dev/null`, run as root) with a regular file: it refuses such a path."""
    fifo, folder = tmp_path / "fifo", tmp_path / "folder"
    os.mkfifo(fifo)
    folder.mkdir()
    for role, args in (("server", ["--endpoint-file", str(fifo)]),
                       ("client", ["--endpoint-file", str(tmp_path / "none"),
                                   "--output", str(folder)])):
        proc = subprocess.run([str(driver.program), "--role", role, *remote_cell(driver), *args],
                              capture_output=True, text=True, timeout=HANG_S)
        assert proc.returncode == 2, proc.stderr
        assert "not a regular file" in proc.stderr, proc.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode) and folder.is_dir()


@each_driver()
def test_a_client_without_a_server_gives_up_within_its_timeout(driver, tmp_path):
    with daemon_of(driver, tmp_path):
        proc = subprocess.run(
            [str(driver.program), "--role", "client", *remote_cell(driver),
             "--endpoint-file", str(tmp_path / "nobody"), "--timeout", "0.5"],
            capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 1
    assert "no endpoint file" in proc.stderr and str(tmp_path / "nobody") in proc.stderr


@each_driver()
def test_fault_exit_leaves_before_publishing(driver, tmp_path):
    with daemon_of(driver, tmp_path):
        proc = subprocess.run(
            [str(driver.program), "--role", "server", *remote_cell(driver), "--endpoint-file",
             str(tmp_path / "endpoint"), "--option", "fault=exit"],
            capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 3 and "injected fault" in proc.stderr
    assert not (tmp_path / "endpoint").exists()


@each_driver()
def test_sigterm_ends_the_server_with_its_header(driver, tmp_path):
    with daemon_of(driver, tmp_path):
        server = driver.server(tmp_path, *remote_cell(driver))
        client, output = driver.client(tmp_path, server, *remote_cell(driver), samples=50)
        status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    header, samples = read_result(server.output)
    assert header["role"] == "server" and header["sample_count"] == 0 and samples == []
    assert read_result(output)[0]["sample_count"] == 50


@each_driver()
def test_sigterm_stops_the_client_and_keeps_its_samples(driver, tmp_path):
    with daemon_of(driver, tmp_path):
        server = driver.server(tmp_path, *remote_cell(driver))
        output = tmp_path / "client.result"
        env, flag = measuring(tmp_path)
        client = subprocess.Popen(
            [str(driver.program), "--role", "client", *remote_cell(driver), "--endpoint-file",
             str(server.endpoint), "--output", str(output), "--samples", "50000000",
             "--warmup", "0"],
            stderr=subprocess.PIPE, text=True, env=env)
        wait_until_measuring(client, flag)
        client.send_signal(signal.SIGTERM)
        _, err = client.communicate(timeout=HANG_S)
        status, _ = server.stop()
    assert client.returncode == 1 and "stopped by SIGTERM after" in err
    header, samples = read_result(output)
    assert 0 < header["sample_count"] == len(samples) < 50000000
    assert status == 0


@each_driver()
@pytest.mark.parametrize("transport_index", [0, -1])
def test_a_fanout_reaches_every_subscriber_in_every_process(driver, tmp_path, transport_index):
    d = describe(driver)
    if "fanout" not in d["operations"]:
        pytest.skip(f"{driver.name} has no fanout operation")
    transport = d["modes"]["remote"][transport_index]
    cell = ["--operation", "fanout", "--transport", transport, "--payload-bytes", "64",
            *private_partition(d["options"])]
    with daemon_of(driver, tmp_path):
        header, samples, subscribers = run_fanout(driver, tmp_path, cell, 4, 2)
    assert len(samples) == 200 and len(subscribers) == 2
    assert header["fanout"]["subscriber_processes"] == 2


# Transports over which a cell must have IP sockets (the others: Unix sockets, shared memory).
IP_TRANSPORTS = {"tcp", "udp"}


@each_driver()
def test_every_socket_is_on_loopback_while_a_cell_runs(driver, tmp_path):
    """No driver listens beyond the machine by default: every IP socket of every process
    of a cell, remote over each transport and collocated, is bound to loopback. Looked at
    once the measuring process has kept its first sample: every socket is made by then."""
    d = describe(driver)
    runs = [("remote", t) for t in d["modes"]["remote"]]
    runs += [("collocated", "inproc")] if "collocated" in d["modes"] else []
    with daemon_of(driver, tmp_path):
        for mode, transport in runs:
            folder = tmp_path / f"{mode}-{transport}"
            folder.mkdir()
            args = ["--operation", "roundtrip", "--transport", transport, "--payload-bytes", "0"]
            server = driver.server(folder, *args) if mode == "remote" else None
            env, flag = measuring(folder)
            role = ["--role", "client", "--endpoint-file", str(server.endpoint)] if server \
                else ["--role", "collocated"]
            measurer = subprocess.Popen(
                [str(driver.program), *role, *args, "--samples", "100000000", "--warmup", "0",
                 "--output", str(folder / "measured.result")],
                stderr=subprocess.PIPE, text=True, env=env)
            try:
                wait_until_measuring(measurer, flag)
                pids = [measurer.pid] + ([server.proc.pid] if server is not None else [])
                sockets = [s for pid in pids for s in inet_sockets(pid)]
                # Read while they run: a group's devices are the process's netns's.
                beyond = [s for pid in pids for s in inet_sockets(pid)
                          if not is_local(s[1], pid)]
            finally:
                measurer.send_signal(signal.SIGTERM)
                measurer.communicate(timeout=HANG_S)
                if server is not None:
                    server.stop()
            assert not beyond, f"{mode} {transport}: bound beyond loopback: {beyond}"
            if transport in IP_TRANSPORTS:
                assert sockets, f"{mode} {transport}: no IP socket seen"


# --bind (contract section 2): two addresses of this machine stand for two hosts.
# Linux answers the whole of 127.0.0.0/8 on lo, so neither needs setting up, and a
# server bound to the first cannot be reached at 127.0.0.1.
SERVER_ADDRESS, CLIENT_ADDRESS = "127.0.0.2", "127.0.0.3"


def crossing_transport(driver):
    """The driver's first remote transport that can cross hosts (not in host_local)."""
    d = describe(driver)
    crossing = [t for t in d["modes"]["remote"] if t not in d.get("host_local", [])]
    if not crossing:
        pytest.skip(f"{driver.name}: every remote transport is host-local")
    return crossing[0]


def addresses_listened_on(pid):
    """The local addresses of every socket `pid` and its descendants receive on."""
    return {address for process in process_tree(pid) for _, address in listening_sockets(process)}


@each_driver()
@pytest.mark.parametrize("value", ["999.1.1.1", "example.org", "", "0.0.0.0"])
def test_a_bad_bind_is_exit_2_and_one_line(driver, tmp_path, value):
    proc = subprocess.run(
        [str(driver.program), "--role", "client", *remote_cell(driver), "--endpoint-file",
         str(tmp_path / "endpoint"), "--bind", value],
        capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"mwbench-driver-{driver.name}: error: --bind "), proc.stderr
    assert (value or "''") in proc.stderr and proc.stderr.count("\n") == 1


@each_driver()
def test_each_end_listens_on_its_bind_address_only(driver, tmp_path):
    """A server on --bind 127.0.0.2 listens (TCP) and receives (UDP) there and nowhere
    else, helpers included; a client on --bind 127.0.0.3 reaches it, and whatever the
    client receives on is on its own address. Looked at once the client has kept its
    first sample: every socket of both is made by then."""
    args = ["--operation", "roundtrip", "--transport", crossing_transport(driver),
            "--payload-bytes", "0"]
    server = driver.server(tmp_path, *args, "--bind", SERVER_ADDRESS)
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [str(driver.program), "--role", "client", *args, "--endpoint-file", str(server.endpoint),
         "--bind", CLIENT_ADDRESS, "--samples", "100000000", "--warmup", "0",
         "--output", str(tmp_path / "client.result")],
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until_measuring(client, flag)
        server_addresses = addresses_listened_on(server.proc.pid)
        client_addresses = addresses_listened_on(client.pid)
    finally:
        client.send_signal(signal.SIGTERM)
        client.communicate(timeout=HANG_S)
        status, err = server.stop()
    assert status == 0, err
    assert server_addresses == {SERVER_ADDRESS}, f"the server listens on {server_addresses}"
    assert client_addresses <= {CLIENT_ADDRESS}, f"the client listens on {client_addresses}"


@each_driver()
def test_a_round_trip_between_two_bind_addresses_completes(driver, tmp_path):
    args = ["--operation", "roundtrip", "--transport", crossing_transport(driver),
            "--payload-bytes", "0"]
    server = driver.server(tmp_path, *args, "--bind", SERVER_ADDRESS)
    client, output = driver.client(tmp_path, server, *args, "--bind", CLIENT_ADDRESS, samples=50)
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    assert read_result(output)[0]["sample_count"] == 50


@each_driver()
def test_a_fanout_between_bind_addresses_reaches_every_subscriber(driver, tmp_path):
    """Subscriber processes on 127.0.0.2 listen there only; a publisher on 127.0.0.3
    reaches every one of their subscribers."""
    if "fanout" not in describe(driver)["operations"]:
        pytest.skip(f"{driver.name} has no fanout operation")
    cell = ["--operation", "fanout", "--transport", crossing_transport(driver),
            "--payload-bytes", "64", *private_partition(describe(driver)["options"])]
    servers = fanout_subscribers(driver, tmp_path, cell, 4, 2, ("--bind", SERVER_ADDRESS))
    listened_on = {address for server in servers
                   for address in addresses_listened_on(server.proc.pid)}
    # publish_to() checks that every subscriber received every event.
    header, samples, subscribers = publish_to(driver, tmp_path, servers, cell, 4,
                                              "--bind", CLIENT_ADDRESS)
    assert listened_on == {SERVER_ADDRESS}, f"the subscribers listen on {listened_on}"
    assert len(samples) == 200 and len(subscribers) == 2
    assert header["fanout"]["subscriber_processes"] == 2


HOSTILE_VALUES = ["", "nan", "-1", "1e400", "x" * 5000, "$(touch pwned)"]


@each_driver()
def test_every_option_refuses_a_bad_value_naming_it_or_takes_it(driver, tmp_path):
    """Each --option the driver declares, given values no option means: the server either
    refuses it (exit 2, naming the option, in one short line) or takes it and serves; it
    never fails otherwise, and no value reaches a shell."""
    with daemon_of(driver, tmp_path):
        for key in describe(driver)["options"]:
            for value in HOSTILE_VALUES:
                endpoint = tmp_path / "endpoint"
                endpoint.unlink(missing_ok=True)
                server = subprocess.Popen(  # in tmp_path, where a value may name a file
                    [str(Path(driver.program).resolve()), "--role", "server",
                     *remote_cell(driver),
                     "--endpoint-file", str(endpoint), "--output", str(tmp_path / "result"),
                     "--option", f"{key}={value}", *private_partition({key})],
                    cwd=tmp_path, stderr=subprocess.PIPE, text=True)
                wait_for_file_or_exit(endpoint, server)
                if server.poll() is None:  # taken: it serves
                    server.send_signal(signal.SIGTERM)
                    server.wait(timeout=HANG_S)
                    continue
                said = server.stderr.read()
                where = f"--option {key}={value[:20]!r}"
                assert server.returncode == 2, f"{where}: exit {server.returncode}: {said}"
                assert f"--option {key}" in said, f"{where}: {said}"
                assert said.count("\n") == 1 and len(said) < 1000, f"{where}: {said[:2000]}"
    assert not (tmp_path / "pwned").exists()
