"""Static deployment as real programs: a plan compiled by mwccm-plan-compile
into a CMake project, built against mwccm as `cmake --install` installs it,
assembles in one process with no XML, no dlopen and no spawned process, and
gives the same assembly as mwccm-deploy (compared through navigation with
mwccm-inspect); a project outside the repository builds components and a
static plan from the installed package.

Run after building:  MWBENCH_BUILD_DIR=build .venv/bin/pytest components/deployment/tests
"""

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from deployment_programs import (
    ARTIFACTS,
    BUILD,
    HANG_S,
    PHASES_OF_BOTH,
    PLANS,
    PROGRAMS,
    REPO,
    hud_updates,
    start,
    stop,
)
from process_sockets import udp_sockets, wildcard

BASIC_SP = REPO / "components" / "basic_sp"
INSTANCES = ("rate_gen", "gps", "airframe", "hud")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """mwccm installed from this build into a scratch prefix."""
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(
        ["cmake", "--install", BUILD, "--prefix", prefix], check=True, stdout=subprocess.DEVNULL
    )
    return prefix


def configure_and_build(source, prefix):
    """cmake -S source -B source/build against the installed mwccm, then build."""
    build = source / "build"
    flags = [f"-DCMAKE_PREFIX_PATH={prefix}", "-G", "Ninja"]
    if os.environ.get("MWBENCH_BUILD_DIR", "").endswith("asan"):
        flags.append("-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined")
    for command in (["cmake", "-S", source, "-B", build, *flags], ["cmake", "--build", build]):
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    return build


def plan_registering_every_instance(tmp_path):
    """one_process.config, with every instance's reference written to NAME.ior."""
    lines = []
    for line in (PLANS / "one_process.config").read_text().splitlines():
        lines.append(line)
        found = re.match(r"nl\.remedy\.it\.CCM\.Component (\w+) ", line)
        if found and found.group(1) != "hud":  # hud registers hud.ior already
            lines.append(
                f'    nl.remedy.it.DnCX11.ConfigProperty mwccm.InstanceIOR "{found.group(1)}.ior"'
            )
    plan = tmp_path / "every_instance.config"
    plan.write_text("\n".join(lines) + "\n")
    return plan


def inspect(directory):
    result = subprocess.run(
        [
            PROGRAMS.parent / "deployment" / "mwccm-inspect",
            "--interfaces",
            ARTIFACTS,
            *(f"{name}=file:{directory / (name + '.ior')}" for name in INSTANCES),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def mapped_files(pid):
    return {
        line.split()[-1]
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines()
        if "/" in line
    }


def plan_compile(plan, out, *extra):
    """mwccm-plan-compile PLAN -o OUT, finished."""
    return subprocess.run([PROGRAMS.parent / "deployment" / "mwccm-plan-compile", plan, "-o",
                           out, "--artifacts", ARTIFACTS, *extra], capture_output=True, text=True)


def test_a_compiled_plan_assembles_as_the_dynamic_path_does(tmp_path, installed):
    plan = plan_registering_every_instance(tmp_path)
    project = tmp_path / "project"
    compiled = plan_compile(plan, project, "--name", "basic_sp")
    assert compiled.returncode == 0, compiled.stderr
    program = configure_and_build(project, installed) / "basic_sp"

    static_dir, dynamic_dir = tmp_path / "static", tmp_path / "dynamic"
    static_dir.mkdir()
    dynamic_dir.mkdir()
    static = start([program, "--timings", static_dir / "timings.json"], static_dir, "assembled")
    try:
        static_assembly = inspect(static_dir)
        loaded = mapped_files(static.pid)
        assert not [f for f in loaded if "basic_sp_module.so" in f], (
            "a component library was loaded"
        )
        assert not [f for f in loaded if "libxml2" in f], "a compiled plan reads no XML"
        children = "".join(
            p.read_text() for p in Path(f"/proc/{static.pid}/task").glob("*/children")
        )
        assert not children.split(), "a compiled plan spawns no process"
    finally:
        stop(static)
    assert not list(static_dir.glob("*.ior")), "registrations were not undone"

    dynamic = start(
        [PROGRAMS / "mwccm-deploy", plan, "--artifacts", ARTIFACTS, "--wait"],
        dynamic_dir,
        "mwccm-deploy: deployed",
    )
    try:
        dynamic_assembly = inspect(dynamic_dir)
    finally:
        stop(dynamic)

    assert static_assembly == dynamic_assembly
    assert static_assembly["rate_gen"]["attributes"]["hertz"] == "20"
    assert static_assembly["hud"]["ports"]["airframe"]["connected"] == ["airframe.position"]
    assert static_assembly["rate_gen"]["ports"]["tick"]["connected"] == ["gps.tick"]
    assert static_assembly["airframe"]["ports"]["gps"]["connected"] == ["gps.position"]

    per_step = json.loads((static_dir / "timings.json").read_text())["total_ns_per_step"]
    for step in (*PHASES_OF_BOTH, "orb_initialization", "plan_loading"):
        assert step in per_step, step
    assert "library_load" not in per_step and "plan_parsing" not in per_step


def test_the_in_tree_static_plan_runs_once_and_exits(tmp_path):
    program = ARTIFACTS / "basic_sp_one_process"
    result = subprocess.run(
        [program, "--once", "--timings", tmp_path / "t.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("assembled Basic SP: one process")
    assert "teardown" in json.loads((tmp_path / "t.json").read_text())["total_ns_per_step"]
    assert not (tmp_path / "hud.ior").exists()


@pytest.mark.parametrize("delivery", ["channel", "dds", "zmq"])
def test_a_compiled_plan_delivers_through_the_strategy_it_names(tmp_path, delivery):
    """The compiled tables hold the strategy's name; the program finds it in the registry
    as a deployment does, and the HUD sees the GPS's events through it."""
    program = ARTIFACTS / f"basic_sp_two_processes_{delivery}"
    if not program.exists():
        pytest.skip(f"this mwccm was built without the {delivery} strategy's middleware")
    process = start([program, "--set", "rate_gen.hertz=200"], tmp_path, "assembled")
    try:
        deadline = time.monotonic() + HANG_S
        while hud_updates(tmp_path, tmp_path / "hud.ior") < 40:
            assert time.monotonic() < deadline, "the HUD did not reach 40 updates"
            assert process.poll() is None, process.stderr.read()
    finally:
        stop(process)


def test_a_plan_of_several_processes_needs_one_process(tmp_path):
    result = plan_compile(PLANS / "two_processes.cdp", tmp_path / "out")
    assert result.returncode == 2
    assert "2 processes" in result.stderr and "--one-process" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_bad_plan_is_refused_naming_the_line(tmp_path):
    plan = tmp_path / "bad.config"
    plan.write_text(
        (PLANS / "one_process.config").read_text().replace("tick => tick", "tick => tock")
    )
    result = plan_compile(plan, tmp_path / "out")
    assert result.returncode == 2
    assert re.search(r"bad\.config:\d+: .*tock", result.stderr), result.stderr


def test_a_project_elsewhere_builds_components_and_a_static_plan(tmp_path, installed):
    project = tmp_path / "elsewhere"
    project.mkdir()
    shutil.copy(
        REPO / "components" / "deployment" / "tests" / "external_project" / "CMakeLists.txt",
        project,
    )
    for source in ("BasicSP.idl3", "BasicSP.idl", "basic_sp_executors.cpp"):
        shutil.copy(BASIC_SP / source, project)
    shutil.copy(PLANS / "one_process.config", project)
    build = configure_and_build(project, installed)
    assert (build / "libbasic_sp_module.so").exists()  # the dynamic artifact, too
    result = subprocess.run(
        [build / "basic_sp_static", "--once"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "assembled Basic SP: one process" in result.stdout


def test_set_overrides_a_value_the_plan_sets_and_refuses_others(tmp_path):
    program = ARTIFACTS / "basic_sp_one_process"
    log = tmp_path / "hud.log"
    result = subprocess.run(
        [program, "--once", "--set", "rate_gen.hertz=1000", "--set", f"hud.log_file={log}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert log.exists()  # HUD checks at configuration that it can append to it
    for bad, said in (
        ("rate_gen.hertz=fast", "an integer"),
        ("gps.hertz=1", "sets no such"),
        ("hertz", "INSTANCE.ATTRIBUTE=VALUE"),
    ):
        result = subprocess.run(
            [program, "--once", "--set", bad],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2 and said in result.stderr, result.stderr


SCALE = BUILD / "components" / "scale"


def steps_named(timings_file, step):
    return [s for s in json.loads(timings_file.read_text())["steps"] if s["step"] == step]


def test_a_thousand_relays_assemble_statically_in_one_process(tmp_path):
    result = subprocess.run(
        [SCALE / "scale_1000", "--once", "--timings", tmp_path / "t.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert len(steps_named(tmp_path / "t.json", "component_creation")) == 1000
    assert len(steps_named(tmp_path / "t.json", "connection")) == 999
    removed = steps_named(tmp_path / "t.json", "removal")
    assert len([s for s in removed if s["subject"].startswith("relay_")]) == 1000


def test_a_hundred_relays_deploy_over_ten_servers_on_two_nodes(tmp_path):
    process = start(
        [
            PROGRAMS / "mwccm-deploy",
            SCALE / "plans" / "scale_100.config",
            "--artifacts",
            SCALE,
            "--timings",
            tmp_path / "t.json",
            "--wait",
        ],
        tmp_path,
        "mwccm-deploy: deployed",
    )
    stop(process)
    timings = tmp_path / "t.json"
    assert len(steps_named(timings, "component_creation")) == 100
    assert len(steps_named(timings, "connection")) == 99
    assert len(steps_named(timings, "server_creation")) == 10
    assert len({s["process"] for s in steps_named(timings, "component_creation")}) == 10


@pytest.mark.skipif(not (ARTIFACTS / "basic_sp_one_process_dds").exists(),
                    reason="this mwccm was built without Cyclone DDS")
def test_a_compiled_dds_plan_binds_loopback_only(tmp_path):
    """As a component server does: Cyclone DDS 0.10 would bind its receive sockets to every
    interface; the compiled plan's program keeps them on the plan's channel address."""
    program = start([ARTIFACTS / "basic_sp_one_process_dds"], tmp_path, "assembled")
    try:
        addresses = udp_sockets(program.pid)
        assert addresses, "the program has no UDP socket: is it on DDS?"
        assert not wildcard(addresses), f"it binds every interface: {addresses}"
    finally:
        stop(program)
