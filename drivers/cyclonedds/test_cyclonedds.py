"""What only mwbench-driver-cyclonedds does: its description and its configuration.

The round trip, the payload check, the failures and the fan-out, which both DDS
drivers share, are checked in drivers/test_dds.py; the contract in
drivers/test_contract.py. Needs a build: the driver is looked up in
$MWBENCH_BUILD_DIR (default: the repository's build/).
"""

import xml.etree.ElementTree as ET

from driver_processes import REPO, Driver, DriverServer, cell, read_result

CYCLONEDDS = Driver("cyclonedds")
DRIVER = CYCLONEDDS.program
pytestmark = CYCLONEDDS.built_or_skipped()


def run_client(tmp_path, args, samples=200):
    return CYCLONEDDS.run("client", tmp_path, "--endpoint-file", str(tmp_path / "endpoint"),
                          *args, samples=samples)


def test_describe():
    d = CYCLONEDDS.describe()
    assert d["contract"] == 1 and d["driver"] == "cyclonedds"
    assert d["middleware_version"] == "0.10.2"
    assert d["operations"] == {"roundtrip": {"payload": False}, "octets": {"payload": True},
                               "fanout": {"payload": True}}
    assert d["modes"] == {"remote": ["udp"], "collocated": ["inproc"]} and "host_local" not in d
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
    status, err = server.stop()
    assert status == 0, err
    server_config = read_result(server.output)[0]["middleware_config"]
    # With the default --bind, both ends run with what ddsperf is given (the
    # client names the server's address as a peer: its own, listed once).
    assert settings(config["CYCLONEDDS_URI"]) == loopback_file_settings()
    assert settings(server_config["CYCLONEDDS_URI"]) == loopback_file_settings()


def settings(fragments):
    """Every setting of Cyclone XML fragments, as sorted (path, attributes, text)."""
    return sorted(leaves(ET.fromstring(f"<root>{fragments}</root>"), ""))


def loopback_file_settings():
    """The settings of cyclonedds-loopback.xml, the file ddsperf is given."""
    namespace = "{https://cdds.io/config}"
    domain = ET.parse(REPO / "drivers/cyclonedds/cyclonedds-loopback.xml").getroot()[0]
    return sorted((path.replace(namespace, ""), attributes, text)
                  for path, attributes, text in leaves(domain, ""))


def leaves(element, path):
    """(path, attributes, text) of every element of `element` without children."""
    found = []
    for child in element:
        child_path = f"{path}/{child.tag}"
        if len(child):
            found += leaves(child, child_path)
        else:
            found.append((child_path, tuple(sorted(child.attrib.items())),
                          (child.text or "").strip()))
    return found
