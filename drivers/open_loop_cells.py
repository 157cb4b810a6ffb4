"""What every driver's tests of the open loop need (--load, docs/driver-contract-open-loop.md):
a cell run under an open load, a cell whose server stops answering, and the check that an
open loop's result agrees with itself. No figure of time is judged.

Standard library only, beside driver_processes.py, which starts the processes.
"""

import signal
import subprocess

from driver_processes import (
    HANG_S,
    measuring,
    read_result,
    read_result_with_series,
    wait_until_measuring,
)


def run_open_cell(driver, tmp_path, load, *args, collocated=False, samples=200, warmup=20):
    """One cell of `driver` under an open-loop `load` ("constant:2000"), to its end, as the
    orchestrator runs it: `--load` goes to the client (or the collocated process) alone,
    `args` to both ends. Checks that every process exited 0 and that the result agrees
    with itself (assert_open_loop_consistent); returns the client's (header, samples,
    named series)."""
    own = ["--load", load, *args]
    if collocated:
        proc, output = driver.run("collocated", tmp_path, *own, samples=samples, warmup=warmup)
    else:
        server = driver.server(tmp_path, *args)
        proc, output = driver.client(tmp_path, server, *own, samples=samples, warmup=warmup)
        status, err = server.stop()
        assert status == 0, err
    assert proc.returncode == 0, proc.stderr
    header, measured, named = read_result_with_series(output)
    assert_open_loop_consistent(header, measured, named, load, samples)
    return header, measured, named


def open_loop_cut_off(driver, tmp_path, *args, calls=1000):
    """An open loop (constant:1000, `calls` measured calls, --timeout 1) whose server is
    stopped (SIGSTOP) once the client measures, so that the calls sent after stay
    unanswered: the client must end on its own, exit 0, count them lost (each measured
    call answered or lost, no more lost than were outstanding after the last send) and
    warn of them. Returns the client's header once the server, resumed, has stopped."""
    server = driver.server(tmp_path, *args)
    output = tmp_path / "client.result"
    env, flag = measuring(tmp_path)
    client = subprocess.Popen(
        [str(driver.program), "--role", "client", "--endpoint-file", str(server.endpoint),
         "--output", str(output), "--samples", str(calls), "--warmup", "20",
         "--load", "constant:1000", "--timeout", "1", *args],
        stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until_measuring(client, flag)
        server.proc.send_signal(signal.SIGSTOP)
        _, err = client.communicate(timeout=HANG_S)
    finally:
        server.proc.send_signal(signal.SIGCONT)
        if client.poll() is None:
            client.kill()
            client.wait()
    status, server_err = server.stop()
    assert client.returncode == 0, err
    assert status == 0, server_err
    header = read_result(output)[0]
    load = header["load"]
    assert header["sample_count"] + load["lost"] == load["calls"] == calls
    assert load["lost"] <= load["outstanding_at_end"]
    assert ("left out as lost" in err) == (load["lost"] > 0), err
    return header


def assert_open_loop_consistent(header, samples, named, load, calls):
    """An open loop's result agrees with itself, on loopback: the `load` offered, `calls`
    measured calls sent and every one answered (answered + lost = calls, lost 0), one
    sample per answered call with its service time and send lag beside it, and no call's
    response time (from its intended start) below its service time (from its send)."""
    kind, rate = load.split(":")
    summary = header["load"]
    assert (summary["kind"], summary["rate_per_s"]) == (kind, float(rate))
    assert summary["calls"] == calls
    assert summary["lost"] == 0, f"{summary['lost']} calls lost on loopback"
    assert header["sample_count"] + summary["lost"] == summary["calls"]
    assert 0 <= summary["outstanding_at_end"] <= calls and 0 <= summary["late_sends"] <= calls
    assert header["batch_size"] == 1
    assert [(s["name"], s["count"]) for s in header["named_series"]] == [
        ("service_time", len(samples)), ("send_lag", len(samples))]
    service, lag = named["service_time"], named["send_lag"]
    below = [i for i, (r, s) in enumerate(zip(samples, service, strict=True)) if r < s]
    assert not below, f"calls whose response time is below their service time: {below}"
    assert samples == [s + g for s, g in zip(service, lag, strict=True)]  # of the same call
