"""`mwbench list`: drivers with what they support, why one is missing, and the suites."""

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


def test_a_driver_that_is_not_built_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("MWBENCH_BUILD_DIR", str(tmp_path))
    describe.cache_clear()
    try:
        result = CliRunner().invoke(main, ["list"])
    finally:
        describe.cache_clear()
    assert result.exit_code == 0
    assert "rawtcp is not available: not built:" in result.output


def test_a_driver_the_build_left_out_gives_the_builds_reason(monkeypatch, tmp_path):
    (tmp_path / "drivers" / "rawtcp").mkdir(parents=True)
    (tmp_path / "drivers" / "rawtcp" / "unavailable.txt").write_text(
        "Linux sockets missing (a test)\n")
    monkeypatch.setenv("MWBENCH_BUILD_DIR", str(tmp_path))
    describe.cache_clear()
    try:
        result = CliRunner().invoke(main, ["list"])
    finally:
        describe.cache_clear()
    assert "rawtcp is not available: not built: Linux sockets missing (a test)" in result.output
