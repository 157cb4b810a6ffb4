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
COMPILE = BUILD / "components" / "deployment" / "mwccm-plan-compile"
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
    assert result.stderr == f"{zero}: is a character device, not a regular file\n"


def test_refuses_what_is_no_plan_file_at_once_with_one_line(tmp_path):
    """A FIFO is refused without being opened (nothing writes to it: an open
    would block), a directory by name, a sparse file past the 64 MiB bound."""
    fifo = tmp_path / "plan.config"
    os.mkfifo(fifo)
    directory = tmp_path / "plan.cdp"
    directory.mkdir()
    huge = tmp_path / "huge.config"
    huge.touch()
    os.truncate(huge, 65 << 20)
    for plan, refusal in ((fifo, "is a FIFO, not a regular file"),
                          (directory, "is a directory, not a regular file"),
                          (huge, "is 68157440 bytes; a plan is at most 64 MiB")):
        for tool in (TOOL, COMPILE):
            arguments = ["check", plan] if tool == TOOL else [plan, "-o", tmp_path / "out"]
            # The timeout guards against a hang only.
            result = subprocess.run([tool, *arguments, *INTERFACES], capture_output=True,
                                    text=True, timeout=60)
            assert result.returncode == 2, result.stderr
            assert result.stderr == f"{plan}: {refusal}\n"


def test_refuses_a_name_that_is_not_utf8_with_its_line(tmp_path):
    """Otherwise it reached the timings file, whose JSON refused it, after deploying."""
    text = (PLANS / "basic_sp.config").read_text()
    plan = tmp_path / "latin1.config"
    plan.write_bytes(text.replace("Component gps ", "Component gps\xe9 ").encode("latin-1"))
    line = 1 + text.splitlines().index("nl.remedy.it.CCM.Component gps BasicSP "
                                        "mwccm_home_BasicSP_GPSHome")
    result = run("check", plan, *INTERFACES)
    assert result.returncode == 2
    assert result.stderr == f"{plan}:{line}: invalid UTF-8 (byte 0xE9): the file must be UTF-8\n"
    label = tmp_path / "label.config"
    label.write_bytes(text.replace("Basic SP, two", "Basic SP\xff two").encode("latin-1"))
    assert run("check", label, *INTERFACES).returncode == 2


def test_a_long_name_makes_a_short_error_line(tmp_path):
    text = (PLANS / "basic_sp.config").read_text()
    plan = tmp_path / "long.config"
    plan.write_text(text.replace("ready => gps_ready", "ready => " + "g" * 5_000_000))
    result = run("check", plan, *INTERFACES)
    assert result.returncode == 2
    assert "(5000000 bytes)" in result.stderr
    assert all(len(line) < 600 for line in result.stderr.splitlines()), result.stderr[:1000]


WILDCARD_SERVER = """
nl.remedy.it.DnCX11.LocalityManager display_server
    nl.remedy.it.DnCX11.Node "Avionics"
    nl.remedy.it.DnCX11.Locality "display"
    nl.remedy.it.DnCX11.ConfigProperty mwccm.Channel.Address "{address}"
"""


@pytest.mark.parametrize("address", ["0.0.0.0", "::", ""])
def test_a_wildcard_address_is_refused_unless_the_plan_means_it(tmp_path, address):
    """Servers bind to loopback unless told otherwise: a plan says so with
    mwccm.Channel.AllowWildcard."""
    plan = tmp_path / "wildcard.config"
    text = (PLANS / "basic_sp.config").read_text() + WILDCARD_SERVER.format(address=address)
    plan.write_text(text)
    result = run("check", plan, *INTERFACES)
    assert result.returncode == 2
    line = text.splitlines().index(f'    nl.remedy.it.DnCX11.ConfigProperty mwccm.Channel.Address '
                                   f'"{address}"') + 1
    assert result.stderr.startswith(
        f"{plan}:{line}: configProperty mwccm.Channel.Address of component server "
        f"'display_server' is '{address}', every interface of the host"), result.stderr
    assert "mwccm.Channel.AllowWildcard true" in result.stderr
    allowed = "    nl.remedy.it.DnCX11.ConfigProperty mwccm.Channel.AllowWildcard true\n"
    plan.write_text(text + allowed)
    result = run("check", plan, *INTERFACES)
    if address == "0.0.0.0":
        assert result.returncode == 0, result.stderr
    else:  # meant, but still not an IPv4 address
        assert "is a tk_string IPv4 address" in result.stderr


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
needs_zmq = pytest.mark.skipif(
    not (BUILD / "components" / "basic_sp" / "basic_sp_two_processes_zmq").exists(),
    reason="this mwccm was built without libzmq")


@pytest.mark.parametrize(
    "plan", ["one_process", "one_process_rt", "one_process_plain", "one_process_channel",
             "two_processes", "two_processes_channel", "four_processes_two_nodes",
             pytest.param("one_process_dds", marks=needs_dds),
             pytest.param("two_processes_dds", marks=needs_dds),
             pytest.param("two_processes_zmq", marks=needs_zmq)]
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
