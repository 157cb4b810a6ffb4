"""What every driver's tests need of a driver process: starting it as the orchestrator
does, its result file (its sockets and children: proc_view.py).

Standard library only. pytest puts this folder on the import path (`pythonpath`
in pyproject.toml), so `drivers/<name>/test_<name>.py` imports it by name.
"""

import atexit
import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from proc_view import established_connections

REPO = Path(__file__).resolve().parents[1]
# Absolute, so that a test may run a driver from a working directory of its own.
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).absolute()
# How long a test waits for what must happen (a process to end, a file to
# appear): only a hang exceeds it, never a busy machine.
HANG_S = 120



def read_result(path):
    """A minimal, strict reader of a result file (the full one is the orchestrator's):
    its header and samples."""
    header, samples, _ = read_result_with_series(path)
    return header, samples


def read_result_with_series(path):
    """The header, the samples and the named series ({name: values}, in file order)."""
    lines = Path(path).read_text().split("\n")
    assert lines[0] == "mwbench-result 1"
    header = json.loads(lines[1])
    count = header["sample_count"]
    samples = [int(s) for s in lines[2:2 + count]]
    rest = lines[2 + count:]
    named = {}
    for series in header.get("named_series", []):
        assert rest[0] == f"series {series['name']}", f"expected series {series['name']}"
        named[series["name"]] = [int(v) for v in rest[1:1 + series["count"]]]
        rest = rest[1 + series["count"]:]
    assert rest == ["end", ""], "missing end line or wrong sample count"
    assert all(s >= 0 for s in samples)
    return header, samples, named


def assert_open_loop(header, samples, named, load="constant:2000", calls=200):
    """An open loop's result on loopback (docs/driver-contract-open-loop.md): every
    measured call sent under `load` and answered, the header's counts agreeing with the
    series, and each response time (from the call's intended start) its send lag plus
    its service time. Judges counts and identities only, never a time."""
    kind, rate = load.split(":")
    summary = header["load"]
    assert summary["kind"] == kind and summary["rate_per_s"] == float(rate)
    assert summary["calls"] == calls and summary["lost"] == 0, summary
    assert header["sample_count"] == calls == len(samples)
    assert summary["outstanding_at_end"] <= calls
    assert list(named) == ["service_time", "send_lag"]
    assert samples == [service + lag for service, lag in
                       zip(named["service_time"], named["send_lag"], strict=True)]
    late = sum(lag > summary["late_threshold_ns"] for lag in named["send_lag"])
    assert late == summary["late_sends"]


# Fast DDS's names in /dev/shm: the shared-memory transport's segments, ports
# and locks (and sem.fastrtps_* mutexes), and data sharing's pools.
FASTDDS_SHM_PREFIXES = ("fastrtps_", "sem.fastrtps_", "fast_datasharing_")


def fastdds_files():
    """Fast DDS's files in /dev/shm: segments, ports, locks and data-sharing pools."""
    return {p.name for p in Path("/dev/shm").iterdir() if p.name.startswith(FASTDDS_SHM_PREFIXES)}


def fastdds_files_of(pid):
    """Fast DDS's files in /dev/shm that process `pid` maps or holds open now: the files a
    test's own process made or uses, whatever other processes of the machine make."""
    names = set()
    try:
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
            path = line.split(maxsplit=5)[5] if len(line.split(maxsplit=5)) == 6 else ""
            names.add(path)
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                names.add(os.readlink(fd))
            except OSError:
                continue
    except OSError:
        return set()
    return {Path(n).name for n in names
            if n.startswith("/dev/shm/") and Path(n).name.startswith(FASTDDS_SHM_PREFIXES)}


@pytest.fixture(autouse=True)
def no_fastdds_files_left(other_live_runs):
    """A test module that imports this checks that none of its tests leaves shared memory
    of Fast DDS behind (the fastdds driver removes what dead processes left, at its start).
    /dev/shm is the machine's: judged only while no other mwbench run is live (conftest.py)."""
    before = fastdds_files()
    yield
    if other_live_runs():
        return
    left = fastdds_files() - before
    assert not left, f"Fast DDS files left in /dev/shm: {sorted(left)}"


# Every server a test started: a test that fails before stop() must not leave
# its server running after the session.
_started: list[subprocess.Popen] = []


@atexit.register
def _kill_leftover_servers():
    for proc in _started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


class DriverServer:
    """A driver server process, started and waited for as the orchestrator does."""

    def __init__(self, driver, tmp_path, args, env=None):
        self.endpoint = tmp_path / "endpoint"
        self.output = tmp_path / "server.result"
        self.proc = subprocess.Popen(
            [driver, "--role", "server", "--endpoint-file", self.endpoint,
             "--output", self.output, *args],
            stderr=subprocess.PIPE, text=True, env=env)
        _started.append(self.proc)
        wait_for_file(self.endpoint, self.proc)

    def stop(self):
        """SIGTERM, as the orchestrator sends it; returns (exit status, stderr)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail(f"server did not exit within {HANG_S} s of SIGTERM")
        return self.proc.returncode, err


def _wait(done, process, before, never):
    """Until done(); fails saying `before` if `process` exits first, `never` after HANG_S.
    The driver's own stderr, if piped, goes into the message."""
    deadline = time.monotonic() + HANG_S
    while not done():
        # done() is looked at again once the process has exited: it may have done what is
        # waited for (or its exit may be what is waited for) after the look above.
        if process.poll() is not None and not done():
            err = process.stderr.read() if process.stderr else ""
            pytest.fail(f"exited with status {process.returncode} before {before}: {err}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"{never} within {HANG_S} s")
        time.sleep(0.01)


def wait_for_file(path, process):
    """Until `path` exists, failing if `process` (which makes it) exits first."""
    _wait(path.exists, process, f"making {path}", f"no {path}")


def wait_for_file_or_exit(path, process):
    """Until `path` exists or `process` (which makes it) has exited, whichever is first."""
    _wait(lambda: path.exists() or process.poll() is not None, process, "", f"no {path}")


def measuring(tmp_path):
    """(environment, file) for a client or collocated process that creates `file` once it
    has kept its first sample (MWBENCH_MEASURING_FILE, driver contract section 2)."""
    flag = tmp_path / "measuring"
    return {**os.environ, "MWBENCH_MEASURING_FILE": str(flag)}, flag


def wait_until_measuring(proc, flag):
    """Until `proc` (started with the environment of `measuring`) is in its measured loop."""
    _wait(flag.exists, proc, "its first sample", "no first sample")


def private_partition(options):
    """`--option dds_partition=...` of a partition of this test's own, for a driver whose
    --describe `options` has it: DDS fan-outs of other tests (or of anyone) on this host, in
    the default partition, would otherwise reach this one's readers."""
    if "dds_partition" not in options:
        return []
    return ["--option", f"dds_partition=test-{os.getpid()}-{uuid.uuid4().hex[:12]}"]


def cell(operation, transport, payload=0, *extra):
    """The arguments of one cell, as the orchestrator passes them to both ends."""
    return ["--operation", operation, "--transport", transport,
            "--payload-bytes", str(payload), *extra]


def wrong_option_cases(operation, transport, options):
    """(role, arguments, message) for Driver.assert_usage_error: each `--option` of
    `options` (pairs of the option and what its error names) in each role, over
    `transport` (collocated: inproc)."""
    return [(role, [*cell(operation, "inproc" if role == "collocated" else transport),
                    "--option", option], message)
            for role in ("server", "client", "collocated") for option, message in options]


class Driver:
    """One driver's program in $MWBENCH_BUILD_DIR (default build/), run as the orchestrator
    runs it."""

    def __init__(self, name):
        self.name = name
        self.program = BUILD / "drivers" / name / f"mwbench-driver-{name}"

    def built_or_skipped(self):
        """A mark for its tests: skipped, with the build's reason, when the build left the
        driver out because its middleware is missing (unavailable.txt); otherwise run,
        so that a driver that should have been built and was not fails them."""
        reason_file = self.program.parent / "unavailable.txt"
        left_out = not self.program.exists() and reason_file.exists()
        reason = reason_file.read_text().strip() if left_out else ""
        return pytest.mark.skipif(left_out, reason=f"{self.name} not built: {reason}")

    def server(self, tmp_path, *args):
        return DriverServer(str(self.program), tmp_path, list(args))

    def run(self, role, tmp_path, *args, samples=200, warmup=20):
        """A client or collocated run to its end; returns (completed process, result path)."""
        output = tmp_path / f"{role}.result"
        proc = subprocess.run(
            [str(self.program), "--role", role, "--output", str(output), "--samples",
             str(samples), "--warmup", str(warmup), *args],
            capture_output=True, text=True, timeout=60)
        return proc, output

    def client(self, tmp_path, server, *args, samples=200, warmup=20):
        return self.run("client", tmp_path, "--endpoint-file", str(server.endpoint), *args,
                        samples=samples, warmup=warmup)

    def run_cell(self, tmp_path, *args, collocated=False, samples=200):
        """One cell to its end, as the orchestrator runs it: a collocated run, or a server
        and its client (the server stopped after). Checks that every process exited 0;
        returns the client's (header, samples)."""
        if collocated:
            proc, output = self.run("collocated", tmp_path, *args, samples=samples)
            assert proc.returncode == 0, proc.stderr
            return read_result(output)
        server = self.server(tmp_path, *args)
        proc, output = self.client(tmp_path, server, *args, samples=samples)
        status, err = server.stop()
        assert proc.returncode == 0, proc.stderr
        assert status == 0, err
        return read_result(output)

    def connections_per_port(self, tmp_path, endpoint_file, ports, *args):
        """The established TCP connections a client (of the server that wrote
        `endpoint_file`, with `args`) holds to each of `ports`, counted once it is in its
        measured loop: its threads wait for each other after the warm-up, so each has made
        its calls and holds its connection by then. The client is stopped with SIGTERM."""
        env, flag = measuring(tmp_path)
        client = subprocess.Popen(
            [str(self.program), "--role", "client", "--endpoint-file", str(endpoint_file),
             "--output", str(tmp_path / "client.result"), "--samples", "100000000",
             "--warmup", "100", *args],
            stderr=subprocess.PIPE, text=True, env=env)
        _started.append(client)
        wait_until_measuring(client, flag)
        seen = [established_connections(client.pid, port) for port in ports]
        client.send_signal(signal.SIGTERM)
        client.communicate(timeout=HANG_S)
        return seen

    def describe(self):
        """Its --describe, parsed."""
        out = subprocess.run([str(self.program), "--describe"], capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout)

    def assert_usage_error(self, tmp_path, role, *args, message):
        """`role` with `args` (and an endpoint file, unless collocated) is refused as a usage
        error (exit 2, "mwbench-driver-<name>: error: ...") naming `message`, before it
        publishes an endpoint."""
        endpoint = tmp_path / "endpoint"
        command = [str(self.program), "--role", role, *args]
        if role != "collocated":
            command += ["--endpoint-file", str(endpoint)]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=HANG_S)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"mwbench-driver-{self.name}: error: "), proc.stderr
        assert message in proc.stderr
        assert not endpoint.exists()


def fanout_subscribers(driver, tmp_path, cell_args, subscribers, processes, server_args=()):
    """The subscriber processes of a fan-out, started as the orchestrator starts them:
    `processes` servers (1, or one per subscriber), each hosting its share of the
    `subscribers`, numbered on from the previous one's; `server_args` are theirs alone."""
    assert subscribers % processes == 0, "each process hosts the same number of subscribers"
    share = subscribers // processes
    servers = []
    for index in range(processes):
        folder = tmp_path / f"subscribers-{index}"
        folder.mkdir()
        servers.append(driver.server(folder, *cell_args, "--subscribers", str(share),
                                     "--first-subscriber", str(index * share), *server_args))
    return servers


def run_fanout(driver, tmp_path, cell_args, subscribers, processes, *client_args, samples=200,
               warmup=20):
    """One fan-out end to end: subscriber processes, the publisher, SIGTERM to each
    subscriber process. Returns (publisher's header, its samples, the subscriber
    processes' headers) after checking that every subscriber received every event."""
    servers = fanout_subscribers(driver, tmp_path, cell_args, subscribers, processes)
    return publish_to(driver, tmp_path, servers, cell_args, subscribers, *client_args,
                      samples=samples, warmup=warmup)


def publish_to(driver, tmp_path, servers, cell_args, subscribers, *client_args, samples=200,
               warmup=20):
    """The rest of run_fanout(), once its subscriber processes (`servers`) are up."""
    endpoints = [arg for server in servers for arg in ("--endpoint-file", str(server.endpoint))]
    proc, output = driver.run("client", tmp_path, *endpoints, *cell_args,
                              "--subscribers", str(subscribers), *client_args, samples=samples,
                              warmup=warmup)
    stopped = [server.stop() for server in servers]
    assert proc.returncode == 0, proc.stderr
    for status, err in stopped:
        assert status == 0, err
    header, measured = read_result(output)
    server_headers = [read_result(server.output)[0] for server in servers]
    assert_every_event_delivered(header, server_headers)
    return header, measured, server_headers


def assert_every_event_delivered(header, subscriber_headers=()):
    """Every subscriber, in the publisher's process or in the others, received exactly
    the events the publisher sent: no loss, no duplicate, no stray subscriber. The
    publisher's count is checked against its warm-up and samples, which holds for a
    fixed --batch (with `auto`, the calls that chose the size are events too)."""
    fanout = header["fanout"]
    published = fanout["events_published"]
    assert published == header["warmup"] + header["sample_count"] * header["batch_size"]
    received = {}
    for part in [header, *subscriber_headers]:
        counts = part["fanout"].get("events_received", [])
        first = part["fanout"].get("first_subscriber", 0)
        for offset, count in enumerate(counts):
            assert first + offset not in received, f"subscriber {first + offset} counted twice"
            received[first + offset] = count
    assert received == dict.fromkeys(range(fanout["subscribers"]), published)


def assert_open_loop_result(path, load, samples=200):
    """An open-loop run's result file (--load `load`, e.g. "poisson:2000", --samples
    `samples`) on loopback, where no call may be lost: the header's "load" agrees with
    the samples and their named series, call by call. Judges no time. Returns the
    header."""
    header, response, named = read_result_with_series(path)
    summary = header["load"]
    kind, rate = load.split(":")
    assert summary["kind"] == kind and summary["rate_per_s"] == float(rate)
    assert ("seed" in summary) == (kind == "poisson")
    assert summary["calls"] == samples and summary["lost"] == 0, summary
    assert header["sample_count"] == len(response) == summary["calls"] - summary["lost"]
    assert 0 <= summary["outstanding_at_end"] <= summary["calls"]
    service, lag = named["service_time"], named["send_lag"]
    # A response time runs from the intended start: the send lag, then the service time.
    assert all(r == s + g for r, s, g in zip(response, service, lag, strict=True))
    assert summary["max_send_lag_ns"] == max(lag)
    assert summary["late_sends"] == sum(g > summary["late_threshold_ns"] for g in lag)
    # The spin margin: the warm-up sleeps' lateness, at most a quarter of the gap.
    margin = summary["spin_margin_ns"]
    assert margin <= summary["calibration_lateness_p90_ns"]
    assert margin <= summary["late_threshold_ns"] / 4 + 1
    return header
