#!/usr/bin/env bash
# Set-up of a fresh Debian 12 machine for mwbench, idempotent:
#   1. the system packages (apt-get, only those missing), and source entries
#      for the cross-checks' `apt-get source`,
#   2. the Python virtual environment .venv with mwbench installed (editable),
#   3. the C++ build (CMake + Ninja into build/), which runs mwccm-gen with .venv.
# Each step is skipped when it has nothing to do, so `make test` and
# `make run` can call this every time.
set -euo pipefail
cd "$(dirname "$0")/.."

# The system packages mwbench needs, one group per purpose.
BUILD_PACKAGES=(build-essential cmake ninja-build pkg-config git clang-format procps)
# libxml2 reads deployment plans; libelf reads artifacts' entry points without loading them.
LIBRARY_PACKAGES=(libgtest-dev nlohmann-json3-dev libcli11-dev libxml2-dev libelf-dev)
OMNIORB_PACKAGES=(libomniorb4-dev omniidl omniorb omniorb-nameserver)
# The other middleware the drivers measure, and the tools they are checked
# against (ddsperf in cyclonedds-tools; sockperf for the raw TCP baseline).
# A driver whose packages are missing is not built, and `mwbench list` says why.
MIDDLEWARE_PACKAGES=(libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
                     libzmq3-dev cppzmq-dev cyclonedds-dev cyclonedds-tools
                     libfastrtps-dev fastddsgen iceoryx libiceoryx-posh-dev
                     sockperf)
PYTHON_PACKAGES=(python3 python3-venv python3-dev)
# Cells across hosts: the SSH client reaches them; the test hosts (network namespaces,
# `mwbench testhosts`) run Debian's SSH server and are shaped with tc (iproute2).
# Installing openssh-server also enables its service on machines run by systemd:
# `systemctl disable --now ssh` if this machine should not accept SSH itself.
HOST_PACKAGES=(openssh-client openssh-server iproute2)
# The `background: cpu:N` factor burns CPUs with stress-ng.
LOAD_PACKAGES=(stress-ng)
# The Java driver and component layer (JacORB, the GlassFish ORB): a JDK, and
# Maven to fetch the pinned jars once (java/fetch.sh). HdrHistogram's Java
# tools read the logs of `mwbench export --format hdr` in the tests.
JAVA_PACKAGES=(openjdk-17-jdk-headless maven)
# The report's browser test; instruction counts.
TEST_PACKAGES=(chromium valgrind)
PACKAGES=("${BUILD_PACKAGES[@]}" "${LIBRARY_PACKAGES[@]}" "${OMNIORB_PACKAGES[@]}"
          "${MIDDLEWARE_PACKAGES[@]}" "${JAVA_PACKAGES[@]}"
          "${PYTHON_PACKAGES[@]}" "${HOST_PACKAGES[@]}" "${LOAD_PACKAGES[@]}"
          "${TEST_PACKAGES[@]}")

missing=()
for package in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f '${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi

# Source entries (deb-src) twinning the machine's Debian entries, so that the
# cross-checks take upstream source through apt from the configured mirror
# (scripts/apt_source_entries.py). Only the cross-checks need them: a mirror
# without sources is a warning here, and an error there.
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if [ -n "$("${sudo_cmd[@]}" python3 scripts/apt_source_entries.py)" ]; then
  "${sudo_cmd[@]}" apt-get update -qq ||
    echo "setup: warning: apt-get update failed; benchmarks/crosscheck cannot fetch sources" >&2
fi

# HdrHistogram's Java reference implementation (a jar from Maven Central): the
# tests read `mwbench export --format hdr` logs with its HistogramLogProcessor.
HDR_JAVA_VERSION=2.2.2  # keep in step with orchestrator/tests/export_checks.py
if [ ! -f ".cache/java/HdrHistogram-$HDR_JAVA_VERSION.jar" ]; then
  # -XX:-UsePerfData: the JVM leaves no /tmp/hsperfdata_* behind.
  MAVEN_OPTS="-XX:-UsePerfData" mvn -q -B -Dstyle.color=never dependency:copy \
    -Dartifact="org.hdrhistogram:HdrHistogram:$HDR_JAVA_VERSION" -DoutputDirectory=.cache/java
fi

# The Java ORBs and libraries, pinned with their checksums (java/pom.xml,
# java/jars.sha256): fetched once into .cache/java, offline after that.
java/fetch.sh

# The Python environment, before the C++ build: the build runs mwccm-gen (the
# component code generator) with it, for lark and jinja2. Reinstall only when
# pyproject.toml changed.
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
  .venv/bin/pip install --quiet --upgrade pip
fi
stamp=.venv/.mwbench-installed
if [ ! -f "$stamp" ] || ! cmp -s pyproject.toml "$stamp"; then
  .venv/bin/pip install --quiet -e '.[test]'
  cp pyproject.toml "$stamp"
fi

# The C++ build. Configure once; Ninja rebuilds only what changed.
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMWCCM_PYTHON="$PWD/.venv/bin/python"
fi
cmake --build build
echo "setup: ready (build/ and .venv/)"
