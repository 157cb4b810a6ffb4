"""What the Java component layer's tests share: the command line of a Java program on either
ORB, and a component server (CcmPerfHost, or mwbench-driver-ccm's) as a real process.

Each ORB has its own class path (the two are never on one, each ships org.omg classes):
JacORB's jars, or the GlassFish ORB's with the Java driver's glassfish-compat.jar (its ORB
class for Java 17, ServantObjectExt) and mwccm-glassfish.jar (LocalInterface).
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from driver_processes import HANG_S, wait_for_file

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("MWBENCH_BUILD_DIR", REPO / "build")).absolute()
JARS = BUILD / "components" / "java"
CACHE = REPO / ".cache" / "java"
ORBS = ["jacorb", "glassfish"]
CCM_DRIVER = BUILD / "drivers" / "ccm" / "mwbench-driver-ccm"
PEER_CLIENT = BUILD / "components" / "tests" / "mwccm-java-peer-client"

_ORB_CLASSES = {
    "jacorb": ("org.jacorb.orb.ORB", "org.jacorb.orb.ORBSingleton", []),
    "glassfish": ("org.mwbench.driver.java.glassfish.NoMBeansOrb",
                  "com.sun.corba.ee.impl.orb.ORBSingleton",
                  [BUILD / "drivers" / "java" / "glassfish-compat.jar", "mwccm-glassfish.jar"]),
}


def built_or_skipped():
    """Skipped with the build's reason when it left the Java layer out (no JDK 17 or no jars);
    run, and fail, when it should have been built and was not."""
    reason = JARS / "unavailable.txt"
    left_out = not (JARS / "ccmperf.jar").exists() and reason.exists()
    return pytest.mark.skipif(left_out, reason=reason.read_text().strip() if left_out else "")


def java(orb: str, main: str, *args, components: str = "ccmperf.jar") -> list[str]:
    """`main` on `orb`, with the jar of generated `components` (and their executors)."""
    orb_class, singleton, extra = _ORB_CLASSES[orb]
    jars = [JARS / name for name in [components, "mwccm.jar", "mwccm-checks.jar", *extra]]
    classpath = ":".join([*map(str, jars), str(CACHE / orb / "*")])
    return ["java", "-XX:-UsePerfData", "-cp", classpath, f"-Dorg.omg.CORBA.ORBClass={orb_class}",
            f"-Dorg.omg.CORBA.ORBSingletonClass={singleton}", main, *map(str, args)]


class Server:
    """A component server that publishes an endpoint file and stops on SIGTERM."""

    def __init__(self, command: list, endpoint: Path):
        self.endpoint = endpoint
        self.proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        wait_for_file(endpoint, self.proc)

    def stop(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            pytest.fail(f"server did not exit within {HANG_S} s of SIGTERM")
        return self.proc.returncode, err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()


def java_host(orb: str, tmp_path: Path, *args) -> Server:
    endpoint = tmp_path / "endpoint"
    return Server(java(orb, "org.mwccm.ccmperf.CcmPerfHost", "--endpoint-file", endpoint,
                       "--verify", *args), endpoint)


def cpp_host(tmp_path: Path, *args) -> Server:
    """mwbench-driver-ccm's component server (a comp-comp server: a Receiver that takes
    events too), checking what it receives."""
    endpoint = tmp_path / "endpoint"
    return Server([CCM_DRIVER, "--role", "server", "--transport", "tcp", "--option",
                   "scenario=comp-comp", "--option", "verify=1", "--endpoint-file", endpoint,
                   "--output", tmp_path / "server.result", *args], endpoint)


def run(command: list) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=HANG_S)
