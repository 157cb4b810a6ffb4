"""`mwbench list`: drivers with what they support, why one is missing, and the suites."""

import json

from click.testing import CliRunner

from mwbench.cli import main
from mwbench.drivers import describe


def test_lists_both_drivers_their_transports_and_the_suites():
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0, result.output
    assert "rawtcp" in result.output and "omniorb" in result.output
    assert "remote: tcp, uds" in result.output
    assert "collocated: inproc" in result.output
    assert "suites/quick.yaml" in result.output
    assert "omniorb --option threading" in result.output
    # An option that takes only some values lists them (option_values in --describe).
    assert "omniorb --option orb: " in result.output
    assert "(values: omniorb)" in result.output


def listed_with_build(monkeypatch, build) -> str:
    """What `mwbench list` prints with `build` as the build (the drivers described anew)."""
    monkeypatch.setenv("MWBENCH_BUILD_DIR", str(build))
    describe.cache_clear()
    try:
        result = CliRunner().invoke(main, ["list"])
    finally:
        describe.cache_clear()
    assert result.exit_code == 0, result.output
    return result.output


def test_a_driver_that_is_not_built_says_why(monkeypatch, tmp_path):
    output = listed_with_build(monkeypatch, tmp_path)
    assert "rawtcp is not available: not built:" in output


def test_a_driver_the_build_left_out_gives_the_builds_reason(monkeypatch, tmp_path):
    (tmp_path / "drivers" / "rawtcp").mkdir(parents=True)
    (tmp_path / "drivers" / "rawtcp" / "unavailable.txt").write_text(
        "Linux sockets missing (a test)\n")
    output = listed_with_build(monkeypatch, tmp_path)
    assert "rawtcp is not available: not built: Linux sockets missing (a test)" in output


def test_json_says_what_the_tables_say_and_uds_is_every_drivers_unix_socket():
    result = CliRunner().invoke(main, ["list", "--json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.output)
    drivers = {driver["name"]: driver for driver in listing["drivers"]}
    assert drivers["rawtcp"]["available"] and drivers["rawtcp"]["modes"]["remote"] == \
        ["tcp", "uds"]
    assert "threading" in drivers["omniorb"]["options"]
    assert drivers["omniorb"]["option_values"]["orb"] == ["omniorb"]
    assert drivers["omniorb"]["option_values"]["dispatch"] == ["static", "dsi"]
    for name in ("rawtcp", "omniorb", "grpc", "zmq"):
        if drivers[name]["available"]:
            assert drivers[name]["host_local"] == ["uds"], name
    suites = {suite["file"]: suite for suite in listing["suites"]}
    assert suites["suites/quick.yaml"]["error"] is None
    assert suites["suites/quick.yaml"]["description"]
    table = CliRunner().invoke(main, ["list"]).output
    assert all(name in table for name in drivers)
