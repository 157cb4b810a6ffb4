"""mwccm-plan as a user runs it: check and convert, exit status and messages.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests
"""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).resolve()
TOOL = BUILD / "components" / "deployment" / "mwccm-plan"
PLANS = Path(__file__).resolve().parent / "plans"
INTERFACES = ["--interfaces", str(PLANS / "interfaces")]


def run(*arguments):
    return subprocess.run([TOOL, *arguments], capture_output=True, text=True, timeout=60)


def test_check_accepts_both_formats():
    for plan in ("basic_sp.cdp", "basic_sp.config"):
        result = run("check", PLANS / plan, *INTERFACES)
        assert result.returncode == 0, result.stderr
        assert "5 instances, 5 connections: valid" in result.stdout


def test_check_names_every_problem_with_its_line(tmp_path):
    text = (PLANS / "basic_sp.config").read_text()
    text = text.replace("ready => gps_ready", "ready => gps_redy").replace(
        "hertz uint32:20", "herz uint32:20"
    )
    plan = tmp_path / "broken.config"
    plan.write_text(text)
    result = run("check", plan, *INTERFACES)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, result.stderr
    herz_line = 1 + text.splitlines().index("    nl.remedy.it.DnCX11.ConfigProperty herz uint32:20")
    assert any(
        line.startswith(f"{plan}:{herz_line}: ") and "no writable attribute 'herz'" in line
        for line in lines
    )
    assert any("has no port 'gps_redy'" in line for line in lines)


def test_check_without_interfaces_says_where_it_looked():
    result = run("check", PLANS / "basic_sp.cdp")
    assert result.returncode == 2
    assert "no component interface description (.ccd) names the home entry point" in result.stderr
    assert "searched: no directory" in result.stderr


def test_convert_both_ways_gives_a_valid_plan(tmp_path):
    as_config = tmp_path / "plan.config"
    assert run("convert", PLANS / "basic_sp.cdp", "-o", as_config, *INTERFACES).returncode == 0
    as_cdp = tmp_path / "plan.cdp"
    result = run("convert", as_config, "-o", as_cdp, *INTERFACES)
    assert result.returncode == 0, result.stderr
    assert run("check", as_cdp, *INTERFACES).returncode == 0
    assert len(as_config.read_text().splitlines()) * 3 < len(as_cdp.read_text().splitlines())


def test_convert_of_a_config_needs_the_interfaces(tmp_path):
    result = run("convert", PLANS / "basic_sp.config", "-o", tmp_path / "plan.cdp")
    assert result.returncode == 2
    assert "give --interfaces DIR" in result.stderr


def test_refuses_an_unwritable_output_and_a_hostile_file(tmp_path):
    result = run(
        "convert", PLANS / "basic_sp.cdp", "-o", tmp_path / "missing" / "plan.config", *INTERFACES
    )
    assert result.returncode == 2
    assert "cannot write" in result.stderr
    result = run("check", "/dev/zero", *INTERFACES)
    assert result.returncode == 2
    assert "a plan is a .cdp" in result.stderr
    zero = tmp_path / "zero.cdp"
    zero.symlink_to("/dev/zero")
    result = run("check", zero, *INTERFACES)
    assert result.returncode == 2
    assert "not a regular file" in result.stderr


RELAY_PLAN = """\
nl.remedy.it.CCM.Component receiver relay mwccm_home_Relay_ReceiverHome
    nl.remedy.it.DnCX11.Artifact relay "libmwccm_relay_module.so"
    nl.remedy.it.DnCX11.Node "here"
nl.remedy.it.CCM.Component sender relay mwccm_home_Relay_SenderHome
    nl.remedy.it.DnCX11.Node "here"
    nl.remedy.it.DnCX11.ConfigProperty factor uint32:3
    nl.remedy.it.DnCX11.Connection receiver
      target < {target}
      pulses => pulses
"""


def test_generated_interfaces_and_a_built_artifact_check_a_plan(tmp_path):
    """mwccm-gen wrote the Relay components' .ccd beside their module: the
    check reads them and the module's entry points from there."""
    artifacts = BUILD / "components" / "tests"
    plan = tmp_path / "relay.config"
    plan.write_text(RELAY_PLAN.format(target="calls"))
    result = run("check", plan, "--artifacts", artifacts)
    assert result.returncode == 0, result.stderr
    plan.write_text(RELAY_PLAN.format(target="gauge"))
    result = run("check", plan, "--artifacts", artifacts)
    assert result.returncode == 2
    assert (
        "receptacle 'target' of 'sender' takes IDL:Relay/Counter:1.0;"
        " facet 'gauge' of 'receiver' provides IDL:Relay/Gauge:1.0" in result.stderr
    )


BASIC_SP = REPO / "components" / "basic_sp"
# Plans that deliver through DDS check only in an mwccm built with Cyclone DDS.
needs_dds = pytest.mark.skipif(
    not (BUILD / "components" / "basic_sp" / "basic_sp_one_process_dds").exists(),
    reason="this mwccm was built without Cyclone DDS")


@pytest.mark.parametrize(
    "plan", ["one_process", "one_process_rt", "one_process_plain", "one_process_channel",
             "two_processes", "two_processes_channel", "four_processes_two_nodes",
             pytest.param("one_process_dds", marks=needs_dds),
             pytest.param("two_processes_dds", marks=needs_dds)]
)
def test_basic_sp_plans_are_valid_and_both_formats_agree(plan, tmp_path):
    """The shipped .cdp of each Basic SP plan is what convert writes from its
    .config, and both check against the built components."""
    artifacts = ["--artifacts", BUILD / "components" / "basic_sp"]
    for shipped in (BASIC_SP / "plans" / f"{plan}.config", BASIC_SP / "plans" / f"{plan}.cdp"):
        result = run("check", shipped, *artifacts)
        assert result.returncode == 0, result.stderr
    converted = tmp_path / f"{plan}.cdp"
    result = run(
        "convert",
        BASIC_SP / "plans" / f"{plan}.config",
        "-o",
        converted,
        "--interfaces",
        BUILD / "components" / "basic_sp",
    )
    assert result.returncode == 0, result.stderr
    assert converted.read_text() == (BASIC_SP / "plans" / f"{plan}.cdp").read_text()
