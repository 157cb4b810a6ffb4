"""The Java back end's real pipeline, as mwccm_generate_java() runs it:
mwccm-gen idl, JacORB's IDL compiler, mwccm-gen java, javac against the
runtime (mwccm.jar from the build).

Checks that JacORB's compiler accepts the generated IDL2 and that the glue
of every port kind the golden description has (multiplex receptacle,
emitter, enum and readonly attributes, nested modules) compiles, with
javac's lint warnings as errors, against the IDL compiler's mapping.
"""

import os
import shutil
import subprocess
import sys

import pytest
from generator_testing import COMPONENTS_IDL_DIR, GENERATOR, INPUTS, REPOSITORY, ROUNDTRIP_IDL_DIR

BUILD = os.environ.get("MWBENCH_BUILD_DIR", str(REPOSITORY / "build"))
RUNTIME_JAR = REPOSITORY / BUILD / "components" / "java" / "mwccm.jar"
JAVA_CACHE = REPOSITORY / ".cache" / "java"


def _run(command, cwd, env=None):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    assert result.returncode == 0, f"{command[0]} failed:\n{result.stdout}{result.stderr}"
    return result


def test_generated_java_compiles_against_the_runtime(tmp_path):
    if not RUNTIME_JAR.exists() or shutil.which("javac") is None:
        pytest.skip(f"no {RUNTIME_JAR} (the build leaves the Java layer out without a JDK 17 "
                    "and java/fetch.sh's jars)")
    env = {**os.environ, "PYTHONPATH": str(GENERATOR)}
    generator = [sys.executable, "-m", "mwccm_gen"]
    _run([*generator, "idl", str(INPUTS / "sender.idl3"), "-o", str(tmp_path)], tmp_path, env)
    _run([*generator, "java", str(INPUTS / "sender.idl3"), "-o", str(tmp_path / "glue")], tmp_path,
         env)
    idl_java = tmp_path / "idl"
    compiler = ["java", "-XX:-UsePerfData", "-cp", str(JAVA_CACHE / "build" / "*"),
                "org.jacorb.idl.parser", "-notimestamps", "-d", str(idl_java),
                f"-I{COMPONENTS_IDL_DIR}", f"-I{ROUNDTRIP_IDL_DIR}"]
    _run([*compiler, str(tmp_path / "sender_ccm.idl")], tmp_path)
    _run([*compiler, str(ROUNDTRIP_IDL_DIR / "RoundTrip.idl")], tmp_path)
    glue = sorted((tmp_path / "glue").rglob("*.java"))
    assert len(glue) == 13
    sources = [str(path) for path in [*sorted(idl_java.rglob("*.java")), *glue]]
    classpath = f"{RUNTIME_JAR}:{JAVA_CACHE / 'jacorb' / 'jacorb-omgapi-3.9.jar'}"
    # The IDL compiler's own code warns (raw types): lint the glue only, through -Xlint
    # on a second javac run with the first one's classes on the class path.
    _run(["javac", "-J-XX:-UsePerfData", "--release", "17", "-nowarn", "-cp", classpath,
          "-d", str(tmp_path / "idl_classes"), *sources[:-len(glue)]], tmp_path)
    _run(["javac", "-J-XX:-UsePerfData", "--release", "17", "-Xlint:all,-serial", "-Werror",
          "-cp", f"{classpath}:{tmp_path / 'idl_classes'}", "-d", str(tmp_path / "classes"),
          *[str(path) for path in glue]], tmp_path)
