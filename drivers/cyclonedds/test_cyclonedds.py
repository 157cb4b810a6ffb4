"""What only mwbench-driver-cyclonedds does: its description and its configuration.

The round trip, the payload check, the failures and the fan-out, which both DDS
drivers share, are checked in drivers/test_dds.py; the contract in
drivers/test_contract.py. Needs a build: the driver is looked up in
$MWBENCH_BUILD_DIR (default: the repository's build/).
"""

import json
import subprocess

from driver_processes import Driver, DriverServer, cell, read_result

CYCLONEDDS = Driver("cyclonedds")
DRIVER = CYCLONEDDS.program
pytestmark = CYCLONEDDS.built_or_skipped()


def run_client(tmp_path, args, samples=200):
    return CYCLONEDDS.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"),
                          *args, samples=samples)


def test_describe():
    out = subprocess.run([DRIVER, "--describe"], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    assert d["contract"] == 1 and d["driver"] == "cyclonedds"
    assert d["middleware_version"] == "0.10.2"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["udp"], "collocated": ["inproc"]}
    assert set(d["options"]) == {"wait", "verify"}
    assert d["max_threads"] == 1 and d["max_servants"] == 1
    assert d["max_subscribers"] == 64


def test_the_configuration_is_recorded(tmp_path):
    # drivers/test_dds.py runs the round trip itself; here, what only Cyclone records.
    args = cell("roundtrip", "udp", 0)
    server = DriverServer(DRIVER, tmp_path, args)
    client, output = run_client(tmp_path, args)
    assert client.returncode == 0, client.stderr
    config = read_result(output)[0]["middleware_config"]
    assert config["qos"] == {"reliability": "reliable", "history": "keep_last 1",
                             "durability": "volatile"}
    assert config["CYCLONEDDS_URI"].endswith("drivers/cyclonedds/cyclonedds-loopback.xml")
    assert server.stop()[0] == 0
