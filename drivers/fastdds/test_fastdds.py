"""What only mwbench-driver-fastdds does: its description, its profiles and transports,
and the clean-up of shared memory that earlier runs left.

The round trip, the payload check, the failures and the fan-out, which both DDS
drivers share, are checked in drivers/test_dds.py; the contract in
drivers/test_contract.py. Needs a build: the driver is looked up in
$MWBENCH_BUILD_DIR (default: the repository's build/). Every test checks that
it leaves no Fast DDS file in /dev/shm behind.
"""

import mmap
import os
import time
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    cell,
    fastdds_files,
    fastdds_files_of,
    no_fastdds_files_left,  # noqa: F401 - an autouse fixture of every test here
    read_result,
    run_fanout,
)

FASTDDS = Driver("fastdds")
DRIVER = FASTDDS.program
# Its files in /dev/shm are counted machine-wide (conftest.py)
pytestmark = [FASTDDS.built_or_skipped(), pytest.mark.once_per_machine]

TRANSPORTS = ["udp", "shm"]
SHM = Path("/dev/shm")


def run_client(tmp_path, args, samples=200):
    return FASTDDS.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"), *args,
                       samples=samples)


def run_collocated(tmp_path, args, samples=200):
    return FASTDDS.run("collocated", tmp_path, *args, samples=samples)


def killed_shm_server_files(tmp_path, *options):
    """Starts a shm server and kills it outright (SIGKILL: it removes nothing); returns the
    Fast DDS files in /dev/shm it mapped or held open."""
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "shm", 0, *options))
    files = fastdds_files_of(server.proc.pid)
    server.proc.kill()
    server.proc.wait(timeout=HANG_S)
    server.proc.stderr.close()
    return files


def removed_at_next_start(tmp_path):
    """The files the next driver process (a short collocated run) removed as stale at its
    start (middleware_config.stale_shm.removed_at_start)."""
    proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0), samples=10)
    assert proc.returncode == 0, proc.stderr
    return set(read_result(output)[0]["middleware_config"]["stale_shm"]["removed_at_start"])


def test_describe():
    d = FASTDDS.describe()
    assert d["contract"] == 1 and d["driver"] == "fastdds"
    assert d["middleware_version"] == "2.9.1"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["udp", "shm"], "collocated": ["inproc"]}
    assert d["host_local"] == ["shm"]
    assert set(d["options"]) == {"wait", "verify", "reliability", "data_sharing"}
    assert d["max_threads"] == 1 and d["max_servants"] == 1
    assert d["max_subscribers"] == 64


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_the_configuration_is_recorded(tmp_path, transport):
    # drivers/test_dds.py runs the round trip itself; here, what only Fast DDS records.
    args = cell("roundtrip", transport, 0)
    server = DriverServer(DRIVER, tmp_path, args)
    client, output = run_client(tmp_path, args)
    assert client.returncode == 0, client.stderr
    config = read_result(output)[0]["middleware_config"]
    assert config["participant_profile"] == f"mwbench_{transport}"
    assert config["qos"] == {"reliability": "reliable", "history": "keep_last 1",
                             "durability": "volatile", "publish_mode": "synchronous",
                             "data_sharing": "off"}
    assert config["profiles_file"].endswith("drivers/fastdds/fastdds-loopback.xml")
    # udp: the client on its --bind (the default), with the server's address as a peer.
    expected = {"address": "127.0.0.1", "peers": ["127.0.0.1"]} if transport == "udp" else None
    assert config["network"] == expected
    assert server.stop()[0] == 0


def test_udp_uses_no_shared_memory(tmp_path):
    # Builtin transports off: a udp cell opens no shared-memory segment at all.
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "udp", 0))
    assert fastdds_files_of(server.proc.pid) == set()
    assert server.stop()[0] == 0


def test_shm_uses_shared_memory(tmp_path):
    server = DriverServer(DRIVER, tmp_path, cell("roundtrip", "shm", 0))
    assert any(f.startswith("fastrtps_") for f in fastdds_files_of(server.proc.pid))
    assert server.stop()[0] == 0


def test_collocated_delivery_is_intra_process(tmp_path):
    proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0))
    assert proc.returncode == 0, proc.stderr
    assert read_result(output)[0]["middleware_config"]["intraprocess_delivery"] == "FULL"


def test_transports_do_not_cross(tmp_path):
    # A shm client never reaches a udp server: builtin transports are off on both.
    args = cell("roundtrip", "udp", 0)
    server = DriverServer(DRIVER, tmp_path, args)
    proc, _ = run_client(tmp_path, cell("roundtrip", "shm", 0, "--timeout", "1"))
    assert proc.returncode == 1 and "no matching reader on topic" in proc.stderr
    assert server.stop()[0] == 0


@pytest.mark.parametrize("wait", ["waitset", "chain"])
def test_best_effort_with_data_sharing_runs_and_is_recorded(tmp_path, wait):
    # eProsima's latency test at its fastest: best effort, data sharing over shm.
    args = cell("octets", "shm", 4096, "--option", f"wait={wait}",
                "--option", "reliability=best_effort", "--option", "data_sharing=on")
    server = DriverServer(DRIVER, tmp_path, args)
    pools = {f for f in fastdds_files_of(server.proc.pid) if f.startswith("fast_datasharing_")}
    assert pools, "the server made no data-sharing pool"
    client, output = run_client(tmp_path, args)
    assert client.returncode == 0, client.stderr
    qos = read_result(output)[0]["middleware_config"]["qos"]
    assert qos["reliability"] == "best_effort"
    assert qos["data_sharing"].startswith("on")
    assert server.stop()[0] == 0
    # Its pools hold depth + 1 payloads: a server with data sharing keeps one, not 256.
    assert read_result(server.output)[0]["middleware_config"]["qos"]["history"] == "keep_last 1"


@pytest.mark.parametrize("extra, named", [
    (["--transport", "udp", "--option", "data_sharing=on"], "data_sharing=on"),
    (["--transport", "shm", "--option", "data_sharing=yes"], "data_sharing=yes"),
    (["--transport", "udp", "--option", "reliability=sometimes"], "reliability=sometimes"),
    # A server keeps a data-sharing pool of one pong, whatever the load (README, "Open loop").
    (["--transport", "shm", "--option", "data_sharing=on", "--load", "poisson:2000"],
     "--option data_sharing=on with --load poisson:2000: closed loop only"),
])
def test_qos_options_are_checked(tmp_path, extra, named):
    proc, _ = run_client(tmp_path, ["--operation", "roundtrip", "--payload-bytes", "0", *extra])
    assert proc.returncode == 2 and named in proc.stderr, proc.stderr


def test_qos_options_are_for_ping_pong_only(tmp_path):
    proc, _ = FASTDDS.run("collocated", tmp_path, *cell("fanout", "inproc", 0),
                          "--subscribers", "2", "--option", "reliability=best_effort")
    assert proc.returncode == 2 and "roundtrip and octets only" in proc.stderr, proc.stderr


def test_data_sharing_pools_of_a_killed_run_are_removed(tmp_path):
    # A data-sharing pool has no lock file: once old and mapped by nobody, it is
    # stale (as a port without its lock file, below).
    pools = {f for f in killed_shm_server_files(tmp_path, "--option", "data_sharing=on")
             if f.startswith("fast_datasharing_")}
    assert pools, "the killed server left no data-sharing pool"
    for name in pools:
        os.utime(SHM / name, (time.time() - 60, time.time() - 60))

    removed = removed_at_next_start(tmp_path)
    assert pools <= removed, sorted(pools - removed)


def test_inproc_is_no_remote_transport(tmp_path):
    proc, _ = run_client(tmp_path, cell("roundtrip", "inproc", 0))
    assert proc.returncode == 2 and "inproc" in proc.stderr, proc.stderr


def test_stale_segments_of_a_killed_run_are_removed_at_the_next_start(tmp_path):
    # A shm server killed outright leaves its segment, its ports and their
    # locks; the next driver process to start finds them unlocked and removes them.
    # Its own files: a port (and its mutex) is every participant's of the domain here.
    leftovers = {f for f in killed_shm_server_files(tmp_path)
                 if not f.startswith(("fastrtps_port", "sem.fastrtps_port"))}
    segments = [f for f in leftovers if f.endswith("_el") and not f.startswith("fastrtps_port")]
    assert segments, f"the killed server left no segment lock: {sorted(leftovers)}"

    removed = removed_at_next_start(tmp_path)
    assert leftovers <= removed, sorted(leftovers - removed)
    assert not (fastdds_files() & leftovers)


def test_a_live_processs_segments_are_kept(tmp_path):
    # The segments of a running shm server are locked: a process that starts
    # beside it removes none of them, and the server still answers.
    args = cell("roundtrip", "shm", 0)
    server = DriverServer(DRIVER, tmp_path, args)
    beside = tmp_path / "beside"
    beside.mkdir()
    assert not fastdds_files_of(server.proc.pid) & removed_at_next_start(beside)
    client, _ = run_client(tmp_path, args, samples=50)
    assert client.returncode == 0, client.stderr
    assert server.stop()[0] == 0


def orphan_segment(name, age_s, size=4096):
    """A segment file in /dev/shm without a lock file, last modified `age_s` ago."""
    path = SHM / name
    with open(path, "wb") as f:
        f.truncate(size)
    os.utime(path, (time.time() - age_s, time.time() - age_s))
    return path


def test_segments_without_a_lock_file_are_removed_once_old_and_unmapped(tmp_path):
    # A crash between Fast DDS's removal of a port's lock file and of its segment
    # leaves the segment alone. Removed: one old and mapped by nobody (with its mutex).
    # Kept: one just made (its creator may not have made its lock file yet), and
    # one that a live process (this one) maps.
    base = 50000 + os.getpid() % 10000  # above every port Fast DDS uses (< 32768)
    old = orphan_segment(f"fastrtps_port{base}", 60)
    mutex = orphan_segment(f"sem.fastrtps_port{base}_mutex", 60)
    young = orphan_segment(f"fastrtps_port{base + 1}", 0)
    mapped = orphan_segment(f"fastrtps_port{base + 2}", 60)
    try:
        with open(mapped, "r+b") as f, mmap.mmap(f.fileno(), 4096):
            proc, output = run_collocated(tmp_path, cell("roundtrip", "inproc", 0), samples=10)
        assert proc.returncode == 0, proc.stderr
        stale = read_result(output)[0]["middleware_config"]["stale_shm"]
        assert {old.name, mutex.name} <= set(stale["removed_at_start"])
        assert not {young.name, mapped.name} & set(stale["removed_at_start"])
        assert stale["held_by_live_processes"] >= 2
        assert not old.exists() and not mutex.exists()
        assert young.exists() and mapped.exists()
    finally:
        for path in (old, mutex, young, mapped):
            path.unlink(missing_ok=True)


def test_ports_of_a_killed_run_without_lock_files_are_removed(tmp_path, other_live_runs):
    # As test_stale_segments_of_a_killed_run_...: a shm server killed outright, and
    # then its ports' lock files gone too, as a crash in Fast DDS's own cleanup
    # leaves them. The next start removes the ports by the segments' age. A port is
    # every participant's of the domain on this machine: with another mwbench run live,
    # its processes hold them, and their lock files are not this test's to remove.
    if live := other_live_runs():
        pytest.skip(f"Fast DDS's ports are shared with {live[0]}")
    leftovers = killed_shm_server_files(tmp_path)
    ports = {f for f in leftovers
             if f.startswith("fastrtps_port") and not f.endswith(("_el", "_sl"))}
    assert ports, f"the killed server left no port: {sorted(leftovers)}"
    for name in leftovers:
        if name.startswith("fastrtps_port") and name.endswith(("_el", "_sl")):
            (SHM / name).unlink()
    for name in ports:
        os.utime(SHM / name, (time.time() - 60, time.time() - 60))

    removed = removed_at_next_start(tmp_path)
    assert ports <= removed, sorted(ports - removed)
    assert not (fastdds_files() & leftovers)


# ---- fanout (docs/driver-contract-fanout.md) ---------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_fanout_participants_use_their_profile(tmp_path, transport):
    # drivers/test_dds.py runs the fan-outs; here, Fast DDS's profile of each transport.
    header, _, _ = run_fanout(FASTDDS, tmp_path, cell("fanout", transport, 0), 2, 2)
    assert header["middleware_config"]["participant_profile"] == (
        "mwbench_udp_fanout" if transport == "udp" else "mwbench_shm")


def test_fanout_collocated_delivers_within_the_process(tmp_path):
    proc, output = run_collocated(tmp_path, cell("fanout", "inproc", 0, "--subscribers", "2"))
    assert proc.returncode == 0, proc.stderr
    header = read_result(output)[0]
    assert header["middleware_config"]["transport"].startswith("intra-process delivery")
