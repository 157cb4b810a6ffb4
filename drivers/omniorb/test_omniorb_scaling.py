"""Integration tests of mwbench-driver-omniorb's factors: servants, client threads, memory limit.

Run from the repository root after building:  python3 -m pytest drivers/omniorb
"""

import re
import signal
import subprocess

import pytest
from driver_processes import (
    HANG_S,
    measuring,
    read_result,
    wait_until_measuring,
)
from omniorb_processes import (
    DRIVER,
    QUICK,
    Server,
    collocated,
    run_client,
    sanitized_build,
)
from proc_view import established_connections

pytestmark = pytest.mark.skipif(not DRIVER.exists(), reason=f"{DRIVER} not built")

SUMMARY = re.compile(r"verify: (\d+) servants, (\d+) calls, (\d+) never called")


def call_summary(stderr):
    """(servants, calls, never called) from the line verify=1 prints."""
    found = SUMMARY.search(stderr)
    assert found, stderr
    return tuple(int(x) for x in found.groups())


needs_memory_limit = pytest.mark.skipif(
    sanitized_build(), reason="--memory-limit-mb is refused under AddressSanitizer")


@pytest.mark.parametrize(("servants", "samples"), [(1, 200), (10, 200), (1000, 20000)])
def test_random_target_reaches_every_servant(tmp_path, servants, samples):
    args = ["--operation", "ping", "--transport", "tcp", "--servants", str(servants),
            "--option", "verify=1", "--option", "target=random"]
    server = Server(tmp_path, args)
    client, output = run_client(tmp_path, server, [*args, "--samples", str(samples),
                                                   "--warmup", "20"])
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    # One untimed first call, the warm-up, then one call per sample (batch 1).
    assert call_summary(err) == (servants, 1 + 20 + samples, 0)
    assert read_result(output)[0]["servants"] == servants


def test_same_target_calls_servant_zero_only(tmp_path):
    args = ["--operation", "ping", "--transport", "uds", "--servants", "10",
            "--option", "verify=1"]
    server = Server(tmp_path, args)
    client, _ = run_client(tmp_path, server, [*args, *QUICK])
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert call_summary(err) == (10, 221, 9)


def test_collocated_random_target_reaches_every_servant():
    done = collocated(["--operation", "roundtrip", "--servants", "100", "--option", "verify=1",
                       "--option", "target=random", "--samples", "2000", "--warmup", "0"])
    assert done.returncode == 0, done.stderr
    assert call_summary(done.stderr) == (100, 2001, 0)


@pytest.mark.parametrize("connections", ["own", "shared"])
@pytest.mark.parametrize("threads", [1, 2, 3, 4])
def test_threads_write_one_series_each(tmp_path, threads, connections):
    args = ["--operation", "roundtrip", "--transport", "tcp", "--threads", str(threads),
            "--option", f"connections={connections}"]
    server = Server(tmp_path, args)
    client, output = run_client(tmp_path, server, [*args, *QUICK])
    assert server.stop()[0] == 0
    assert client.returncode == 0, client.stderr
    header, samples = read_result(output)
    assert header["threads"] == threads and len(samples) == 200 * threads
    if threads == 1:
        assert "series" not in header
    else:
        assert [s["name"] for s in header["series"]] == [f"thread-{t + 1}" for t in range(threads)]
        assert [s["count"] for s in header["series"]] == [200] * threads
        assert max(s["wall_ns"] for s in header["series"]) <= header["measured_wall_ns"]
    config = dict(map(tuple, header["middleware_config"]["orb_init_options"]))
    assert config["oneCallPerConnection"] == ("1" if connections == "own" else "0")
    assert config["maxGIOPConnectionPerServer"] == str(threads if connections == "own" else 1)


# shared: one connection for the four threads. own: omniORB may open one per thread, but
# opens one only when those it has are busy (a thread that finds one idle reuses it), so
# a busy machine can show fewer than four; never one, as four threads calling at once
# keep more than one busy.
@pytest.mark.parametrize(("connections", "expected"), [("own", range(2, 5)), ("shared", [1])])
@pytest.mark.parametrize("threading", ["per-connection", "pool"])
def test_connections_own_and_shared(tmp_path, threading, connections, expected):
    args = ["--operation", "ping", "--transport", "tcp", "--threads", "4",
            "--option", f"connections={connections}", "--option", f"threading={threading}"]
    server = Server(tmp_path, args)
    port = int(server.endpoint.read_text().strip().rstrip("/").rsplit(":", 1)[1])
    output = tmp_path / "client.result"
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [DRIVER, "--role", "client", "--endpoint-file", server.endpoint, "--output", output,
         "--samples", "100000000", "--warmup", "100", *args],
        stderr=subprocess.PIPE, text=True, env=env)
    # Once a thread keeps a sample, every thread has warmed up (the threads wait for each
    # other there): each has made its calls and holds its connection.
    wait_until_measuring(client, flag)
    seen = established_connections(client.pid, port)
    client.send_signal(signal.SIGTERM)
    _, err = client.communicate(timeout=HANG_S)
    assert server.stop()[0] == 0
    assert client.returncode == 1 and "stopped by SIGTERM" in err, err
    assert seen in expected
    header, samples = read_result(output)
    assert len(header["series"]) == 4
    assert sum(s["count"] for s in header["series"]) == len(samples)


@needs_memory_limit
def test_servants_beyond_the_memory_limit_fail_clearly(tmp_path):
    endpoint = tmp_path / "endpoint"
    done = subprocess.run(
        [DRIVER, "--role", "server", "--operation", "ping", "--transport", "tcp",
         "--endpoint-file", endpoint, "--servants", "100000", "--memory-limit-mb", "48"],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert re.fullmatch(
        r"mwbench-driver-omniorb: error: after activating (\d+) of 100000 servants: "
        r"out of memory \(--memory-limit-mb 48\)\n", done.stderr), done.stderr
    assert not endpoint.exists()


@needs_memory_limit
def test_servants_within_the_memory_limit_serve(tmp_path):
    args = ["--operation", "ping", "--transport", "tcp", "--servants", "100000",
            "--memory-limit-mb", "512", "--option", "target=random", "--threads", "2"]
    server = Server(tmp_path, args)
    client, output = run_client(tmp_path, server, [*args, *QUICK])
    status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    assert read_result(output)[0]["sample_count"] == 400


@pytest.mark.parametrize(("option", "allowed"), [
    ("connections=some", "allowed values: own, shared"),
    ("target=any", "allowed values: same, random")])
def test_bad_option_values_are_usage_errors(option, allowed):
    done = collocated(["--operation", "ping", "--option", option])
    assert done.returncode == 2
    assert option in done.stderr and allowed in done.stderr
