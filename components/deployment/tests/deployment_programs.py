"""The deployment programs of this build, as the deployment's tests start and stop them:
mwccm-deploy waiting or failing, mwccm-inspect reading a HUD, the processes a test left.
Shared by test_mwccm_deploy*.py and test_mwccm_static.py (no test here).
"""

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).resolve()
PROGRAMS = BUILD / "components" / "server"
DEPLOY = PROGRAMS / "mwccm-deploy"
ARTIFACTS = BUILD / "components" / "basic_sp"
PLANS = REPO / "components" / "basic_sp" / "plans"
TEST_PLANS = Path(__file__).resolve().parent / "plans"
INSPECT = BUILD / "components" / "deployment" / "mwccm-inspect"
DEPLOYED = "mwccm-deploy: deployed"
HANG_S = 120  # how long a test waits for what must happen: only a hang exceeds it


# The phases both assembly modes time (static and dynamic), as --timings names them.
PHASES_OF_BOTH = ("server_creation", "container_creation", "home_creation",
                  "component_creation", "configuration", "registration",
                  "registration_stringify", "registration_publish", "connection", "activation",
                  "total", "teardown")

# The node and component server processes, by their command names (15 characters at most).
MWCCM_PROCESSES = ("mwccm-node", "mwccm-component")


# A fixture, which each test module takes in by name: not in a conftest.py here, which
# would shadow the orchestrator tests' own `conftest` module in a shared pytest worker.
@pytest.fixture
def no_processes_left(own_processes):
    """No node or component server that this test started is still running at its end."""
    yield
    left = own_processes(MWCCM_PROCESSES)
    assert not left, f"processes left behind: {sorted(left)}"


def children_of(pid):
    """Every process whose ancestors include `pid`."""
    found, parents = set(), {pid}
    for _ in range(4):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent in parents:
                found.add(int(entry.name))
        parents |= found
    return found


def start(command, cwd, ready):
    """The program, returned once its first line of output holds `ready`."""
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    line = process.stdout.readline()  # blocks until ready, or until it exits
    if ready not in line:
        process.wait(timeout=60)
        raise AssertionError(f"{command[0]} did not start: {line}{process.stderr.read()}")
    return process


def start_waiting(tmp_path, plan, *extra):
    """mwccm-deploy PLAN --wait, returned once it says it is deployed."""
    return start([DEPLOY, plan, "--artifacts", ARTIFACTS, "--timings", tmp_path / "timings.json",
                  "--wait", *extra], tmp_path, DEPLOYED)


def stop(process):
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0, process.stderr.read()


def hud_updates(tmp_path, ior):
    """A HUD's `updates`, read with mwccm-inspect. The generated BasicSP_HUD.ccd lists only
    the attributes a plan may set: mwccm-inspect is given a copy that lists this one too."""
    interfaces = tmp_path / "inspect"
    if not interfaces.exists():
        interfaces.mkdir()
        ccd = (ARTIFACTS / "BasicSP_HUD.ccd").read_text()
        updates = "<property><name>updates</name><type><kind>tk_ulonglong</kind></type></property>"
        (interfaces / "BasicSP_HUD.ccd").write_text(ccd.replace("<property>", updates +
                                                                "<property>", 1))
    done = subprocess.run([INSPECT, f"hud=file:{ior}", "--interfaces", interfaces],
                          capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["hud"]["attributes"]["updates"])


def broken_plan(tmp_path, text_from, text_to, name="broken.config"):
    plan = tmp_path / name
    text = (PLANS / "two_processes.config").read_text()
    assert text_from in text
    plan.write_text(text.replace(text_from, text_to))
    return plan


def deploy_fails(tmp_path, plan, *extra):
    result = subprocess.run(
        [DEPLOY, plan, "--artifacts", ARTIFACTS, "--wait", *extra],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result


def wait_for_file(path, process):
    """Until `path` exists, or fail if `process` exits first."""
    while not path.exists():
        assert process.poll() is None, process.stderr.read()
        try:
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
