"""Full disclosure of the machine, the build and the software that measured.

Stored with every run and printed by `mwbench env`, so that any figure can be
traced to the conditions that produced it. Each probe is best effort: what
cannot be read is recorded as null rather than guessed.
"""

import importlib.metadata
import json
import os
import platform
import subprocess
from pathlib import Path

from . import __version__, machine_load, paths

MIDDLEWARE_PACKAGES = (
    "libomniorb4-dev", "omniorb", "omniidl", "omniorb-nameserver",
    "cyclonedds-dev", "cyclonedds-tools", "libfastrtps-dev", "libgrpc++-dev",
    "libzmq3-dev", "iceoryx", "libiceoryx-posh-dev", "stress-ng",
)
PYTHON_PACKAGES = ("numpy", "scipy", "pydantic", "ruamel.yaml", "PyYAML", "click", "rich",
                   "hdrhistogram", "matplotlib", "jinja2")


def collect() -> dict:
    return {
        "mwbench_version": __version__,
        "machine": machine(),
        "kernel": {"release": platform.release(), "version": platform.version()},
        "build": _build_info(),
        "git": _git(),
        "middleware_packages": _package_versions(MIDDLEWARE_PACKAGES),
        "machine_load": machine_load.snapshot(),
        "python": {
            "version": platform.python_version(),
            "packages": {name: _python_package(name) for name in PYTHON_PACKAGES},
        },
    }


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def machine() -> dict:
    """What the machine is: its CPUs, memory, idle states and clock (no load sample)."""
    cpuinfo = _read("/proc/cpuinfo") or ""
    model = next((line.split(":", 1)[1].strip() for line in cpuinfo.splitlines()
                  if line.startswith("model name")), None)
    governors = {_read(f"/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor")
                 for cpu in range(os.cpu_count() or 1)}
    return {
        "hostname": platform.node(),
        "architecture": platform.machine(),
        "cpu_model": model,
        "cpu_count": os.cpu_count(),
        "cpus_allowed": sorted(os.sched_getaffinity(0)),
        "cpu_governor": ",".join(sorted(g for g in governors if g)) or None,
        "cpuidle_driver": _read("/sys/devices/system/cpu/cpuidle/current_driver"),
        "cpuidle_governor": _read("/sys/devices/system/cpu/cpuidle/current_governor_ro")
        or _read("/sys/devices/system/cpu/cpuidle/current_governor"),
        "clocksource": _read("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
        "memory_kb": _meminfo_total(),
        "virtualization": _virtualization(cpuinfo),
    }


def _meminfo_total() -> int | None:
    for line in (_read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1])
    return None


def _virtualization(cpuinfo: str) -> str | None:
    if " hypervisor" not in cpuinfo:
        return None
    vendor = _run(["systemd-detect-virt"])
    return vendor or "hypervisor"


def _build_info() -> dict | None:
    path = paths.build_dir() / "mwbench-build.json"
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def _git() -> dict:
    root = str(paths.repo_root())
    commit = _run(["git", "-C", root, "rev-parse", "HEAD"])
    status = _run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"])
    return {"commit": commit, "dirty": bool(status) if commit else None}


def _package_versions(names: tuple[str, ...]) -> dict:
    output = _run(["dpkg-query", "-W", "-f", "${Package} ${Version} ${db:Status-Status}\n",
                   *names]) or ""
    versions = {name: None for name in names}
    for line in output.splitlines():
        name, version, status = (line.split(" ") + ["", ""])[:3]
        if status == "installed":
            versions[name] = version
    return versions


def _python_package(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _run(argv: list[str]) -> str | None:
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout.strip() if result.returncode in (0, 1) and result.stdout else None
