"""Integration tests of mwbench-driver-deploy: real assemblies, static and dynamic.

Run from the repository root after building:  python3 -m pytest drivers/deploy
Each test assembles a real plan (compiled programs, mwccm-node daemons,
component servers); nothing here asserts how long anything took, only that
every step was timed, that the parts fit in their whole, and that nothing is
left running.
"""

import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from driver_processes import (
    HANG_S,
    Driver,
    DriverServer,
    read_result,
    read_result_with_series,
    wait_for_file,
)

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build"))
DRIVER = BUILD / "drivers" / "deploy" / "mwbench-driver-deploy"
# Programs whose processes the driver starts: none may outlive it.
# (By their command names, which the kernel cuts at 15 characters: "mwccm-component".)
STARTED = ("mwccm-node", "mwccm-component", "basic_sp_", "basic-sp-plain")

pytestmark = Driver("deploy").built_or_skipped()
# The Basic SP plans through DDS exist when mwccm was built with Cyclone DDS.
WITH_DDS = (BUILD / "components" / "basic_sp" / "basic_sp_one_process_dds").exists()
needs_dds = pytest.mark.skipif(not WITH_DDS, reason="this mwccm was built without Cyclone DDS")


@pytest.fixture(autouse=True)
def nothing_left_running(own_processes):
    """No program of STARTED that this test started (its tag: conftest.py) still runs."""
    yield
    left = own_processes(STARTED)
    assert not left, f"processes left running: {sorted(left)}"


def assembly(tmp_path, mode, plan, samples=3, extra=(), batch=1):
    output = tmp_path / f"{mode}.result"
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "assembly", "--transport", "inproc",
         "--samples", str(samples), "--warmup", "1", "--batch", str(batch),
         "--option", f"assembly={mode}", "--option", f"plan={plan}", "--output", output,
         *extra],
        capture_output=True, text=True, timeout=HANG_S)
    return done, output


def test_describe():
    d = json.loads(subprocess.run([DRIVER, "--describe"], capture_output=True, text=True,
                                  check=True).stdout)
    assert d["driver"] == "deploy"
    assert set(d["operations"]) == {"assembly", "roundtrip", "tick_to_display"}
    assert set(d["options"]) == {"assembly", "plan", "program", "artifacts", "hertz", "nodes"}
    assert "basic_sp_one_process" in d["options"]["plan"]
    assert d["nodes"]["option"] == "nodes"
    assert Path(d["nodes"]["argv"][0]) == BUILD.resolve() / "components/server/mwccm-node"


def start_node_as_described(name, tmp_path):
    """mwccm-node started as --describe's `nodes` says (as the orchestrator starts one on
    another host), once it has written its reference."""
    described = json.loads(subprocess.run([DRIVER, "--describe"], capture_output=True,
                                          text=True, check=True).stdout)["nodes"]
    reference = tmp_path / f"{name}.ior"
    values = {"{name}": name, "{reference_file}": str(reference)}
    node = subprocess.Popen([values.get(a, a).replace("{bind}", "127.0.0.1")
                             for a in described["argv"]], cwd=tmp_path, stderr=subprocess.PIPE,
                            text=True)
    try:
        wait_for_file(reference, node)
    except BaseException:
        node.kill()
        raise
    return node, reference.read_text().strip()


def test_a_node_of_the_map_is_used_and_the_others_started(tmp_path):
    node, reference = start_node_as_described("Display", tmp_path)
    node_map = tmp_path / "nodes.map"
    node_map.write_text(f"# started elsewhere\nDisplay {reference}\n")
    try:
        done, output = assembly(tmp_path, "dynamic", "basic_sp_four_processes_two_nodes",
                                samples=1, extra=["--option", f"nodes={node_map}"])
        assert done.returncode == 0, done.stderr
        header, _, _ = read_result_with_series(output)
        config = header["middleware_config"]
        assert config["nodes_elsewhere"] == ["Display"]
        roles = [p["role"] for p in config["footprint"]["processes"]]
        assert roles.count("node") == 1 and roles.count("component server") == 2  # Sensors'
        node_map.write_text(f"Ghost {reference}\n")
        done, _ = assembly(tmp_path, "dynamic", "basic_sp_four_processes_two_nodes",
                           extra=["--option", f"nodes={node_map}"])
        assert done.returncode == 2
        assert "nodes.map:1: node 'Ghost' is not a node of plan" in done.stderr
    finally:
        node.terminate()
        assert node.wait(HANG_S) == 0, node.stderr.read()


def check_steps(named, header, own, wholes=("total", "registration")):
    """Every step has one value per sample; the parts of a whole fit in it."""
    series = {s["name"]: s.get("part_of") for s in header["named_series"]}
    assert list(series)[0] == "total"
    assert set(own) <= set(series)
    for name, values in named.items():
        assert len(values) == header["sample_count"], name
    assert all(v > 0 for v in named["total"])
    assert all(v > 0 for v in named["component_creation"])
    for whole in wholes:
        parts = [name for name, of in series.items() if of == whole]
        assert parts, whole
        for i in range(header["sample_count"]):
            # One process, one step after the other: a part lies within its whole.
            assert sum(named[p][i] for p in parts) <= named[whole][i], (whole, i)


def test_static_assembly_times_every_step_and_its_footprint(tmp_path):
    done, output = assembly(tmp_path, "static", "basic_sp_one_process")
    assert done.returncode == 0, done.stderr
    header, samples, named = read_result_with_series(output)
    assert len(samples) == 3
    check_steps(named, header, ["plan_loading", "registration_stringify", "teardown"])
    assert "plan_parsing" not in named and "library_load" not in named
    footprint = header["middleware_config"]["footprint"]
    assert [p["role"] for p in footprint["processes"]] == ["program"]
    assert footprint["processes"][0]["program"] == "basic_sp_one_process"
    assert 0 < footprint["size_bytes"] < footprint["disk_bytes"]
    assert footprint["peak_rss_kb"] > 0


def test_dynamic_assembly_spawns_servers_loads_libraries_and_leaves_nothing(tmp_path):
    done, output = assembly(tmp_path, "dynamic", "basic_sp_two_processes")
    assert done.returncode == 0, done.stderr
    header, samples, named = read_result_with_series(output)
    assert len(samples) == 3
    check_steps(named, header, ["plan_parsing", "plan_check", "library_load", "server_creation"],
                wholes=("total", "home_creation", "registration"))
    assert all(v > 0 for v in named["library_load"])
    roles = sorted(p["role"] for p in header["middleware_config"]["footprint"]["processes"])
    assert roles == ["component server", "component server", "node"]


def test_a_plan_across_two_nodes_starts_a_node_each(tmp_path):
    done, output = assembly(tmp_path, "dynamic", "basic_sp_four_processes_two_nodes", samples=1)
    assert done.returncode == 0, done.stderr
    header, _, _ = read_result_with_series(output)
    roles = [p["role"] for p in header["middleware_config"]["footprint"]["processes"]]
    assert roles.count("node") == 2 and roles.count("component server") == 4


@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_roundtrip_calls_the_assembled_airframe(tmp_path, mode):
    args = ["--operation", "roundtrip", "--transport", "tcp", "--option", f"assembly={mode}",
            "--option", "plan=basic_sp_one_process"]
    server = DriverServer(DRIVER, tmp_path, args)
    try:
        client = subprocess.run(
            [DRIVER, "--role", "client", "--endpoint-file", server.endpoint, "--output",
             tmp_path / "client.result", "--timeout", "30", "--samples", "200", "--warmup",
             "20", *args], capture_output=True, text=True, timeout=HANG_S)
    finally:
        status, err = server.stop()
    assert client.returncode == 0, client.stderr
    assert status == 0, err
    _, samples = read_result(tmp_path / "client.result")
    assert len(samples) == 200


@pytest.mark.parametrize("extra, batch, expected", [
    (["--option", "plan=no_such_plan"], 1, "neither a plan file nor one of"),
    (["--option", "assembly=sometimes"], 1, "use static or dynamic"),
    (["--option", "artifacts=/nonexistent/mwbench"], 1,
     "--option artifacts=/nonexistent/mwbench: not a directory"),
    ([], 8, "--batch must be 1"),
])
def test_bad_options_are_exit_2_naming_them(tmp_path, extra, batch, expected):
    done, _ = assembly(tmp_path, "static", "basic_sp_one_process", extra=extra, batch=batch)
    assert done.returncode == 2, done.stderr
    assert expected in done.stderr


def test_a_plan_that_fails_to_deploy_fails_the_run_naming_the_instance(tmp_path):
    plan = tmp_path / "bad_hertz.config"
    source = (REPO / "components/basic_sp/plans/one_process.config").read_text()
    assert "hertz uint32:20" in source
    plan.write_text(source.replace("hertz uint32:20", "hertz uint32:0"))
    done, output = assembly(tmp_path, "dynamic", plan,
                            extra=["--option", f"artifacts={BUILD / 'components/basic_sp'}"])
    assert done.returncode == 1
    assert "rate_gen" in done.stderr and "hertz" in done.stderr, done.stderr


@pytest.mark.parametrize("operation", ["assembly", "roundtrip", "tick_to_display"])
def test_a_refused_plan_is_exit_2_naming_file_and_line_as_from_mwccm_deploy(tmp_path,
                                                                            operation):
    plan = tmp_path / "no_such_port.config"
    source = (REPO / "components/basic_sp/plans/one_process.config").read_text()
    plan.write_text(source.replace("tick => tick", "tick => tock", 1))
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", operation, "--transport", "inproc",
         "--samples", "3", "--warmup", "1", "--batch", "1", "--output", tmp_path / "result",
         "--option", f"plan={plan}", "--option", f"artifacts={BUILD / 'components/basic_sp'}"],
        capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 2, done.stderr
    assert f"{plan}:10: connection 'rate_gen.tick:gps.tock'" in done.stderr


@pytest.mark.parametrize("mode, plan", [
    ("static", "basic_sp_one_process"),
    ("dynamic", "basic_sp_one_process_plain"),
    ("static", "basic_sp_one_process_channel"),
    ("dynamic", "basic_sp_two_processes_channel"),  # a UDP gateway between the processes
    pytest.param("static", "basic_sp_one_process_dds", marks=needs_dds),
    pytest.param("dynamic", "basic_sp_one_process_dds", marks=needs_dds),
    pytest.param("dynamic", "basic_sp_two_processes_dds", marks=needs_dds),  # DDS on loopback
    ("static", "basic_sp_plain_chain"),
])
def test_tick_to_display_reports_the_latencies_the_hud_recorded(tmp_path, mode, plan):
    output = tmp_path / "latency.result"
    done = subprocess.run(
        [DRIVER, "--role", "collocated", "--operation", "tick_to_display", "--transport",
         "inproc", "--samples", "40", "--warmup", "5", "--batch", "1",
         "--option", f"assembly={mode}", "--option", f"plan={plan}",
         "--option", "hertz=1000", "--output", output],
        capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    header, samples = read_result(output)
    assert header["timed_by"] == "driver" and header["warmup"] == 5
    assert len(samples) == 40 and all(s > 0 for s in samples)
    assert header["middleware_config"]["hertz"] == 1000


def test_the_plain_chain_has_no_assembly(tmp_path):
    done, _ = assembly(tmp_path, "static", "basic_sp_plain_chain")
    assert done.returncode == 2 and "tick_to_display only" in done.stderr


def test_the_delivery_strategy_is_the_plans_not_the_binarys(tmp_path):
    """One component library, byte for byte, delivers Basic SP's events directly,
    through the containers' channels (one process, and two linked by UDP) or through
    DDS (one process and two): the plans differ, name the same artifact, and the HUD
    displays ticks either way."""
    library = BUILD / "components" / "basic_sp" / "libmwccm_basic_sp_module.so"
    digest = hashlib.sha256(library.read_bytes()).hexdigest()
    plans = REPO / "components" / "basic_sp" / "plans"
    artifact = re.compile(r'nl\.remedy\.it\.DnCX11\.Artifact \S+ "([^"]+)"')
    strategies = ["one_process", "one_process_channel", "two_processes_channel"]
    if WITH_DDS:
        strategies += ["one_process_dds", "two_processes_dds"]
    named = {artifact.findall((plans / f"{p}.config").read_text())[0] for p in strategies}
    assert named == {library.name}
    for plan in (f"basic_sp_{p}" for p in strategies):
        output = tmp_path / f"{plan}.result"
        done = subprocess.run(
            [DRIVER, "--role", "collocated", "--operation", "tick_to_display", "--transport",
             "inproc", "--samples", "20", "--warmup", "2", "--batch", "1",
             "--option", "assembly=dynamic", "--option", f"plan={plan}",
             "--option", "hertz=1000", "--output", output],
            capture_output=True, text=True, timeout=HANG_S)
        assert done.returncode == 0, done.stderr
        assert len(read_result(output)[1]) == 20
    assert hashlib.sha256(library.read_bytes()).hexdigest() == digest
