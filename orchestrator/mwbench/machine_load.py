"""Other work on the machine as a run starts: the load average and the processes using CPU.

Every figure assumes that nothing else competes for the CPUs the cells run
on. A process that burns a CPU the cells are pinned to (CPU 0 for same-cpu
placement) takes its share of every call, and a background-load experiment
then measures two loads, not one. mwbench does not stop such processes (they
are not its own); it records them with the run, and the report warns.

A process is listed when it used at least BUSY_SHARE of a CPU over a short
sample, with its CPU affinity and nice value, since those decide whom it
competes with. mwbench's own process tree is left out.
"""

import os
import time
from pathlib import Path

SAMPLE_S = 0.5
BUSY_SHARE = 0.10  # of one CPU


def snapshot(sample_s: float = SAMPLE_S) -> dict:
    before = _cpu_ticks()
    time.sleep(sample_s)
    after = _cpu_ticks()
    ticks = os.sysconf("SC_CLK_TCK") * sample_s
    mine = _own_tree()
    busy = []
    for pid, used in after.items():
        share = (used - before.get(pid, used)) / ticks
        if share >= BUSY_SHARE and pid not in mine:
            busy.append({"pid": pid, "command": _command(pid), "cpu_share": round(share, 2),
                         "nice": _nice(pid), "cpus_allowed": _status(pid, "Cpus_allowed_list")})
    busy.sort(key=lambda p: -p["cpu_share"])
    return {"loadavg": _loadavg(), "busy_processes": busy, "sample_s": sample_s}


def describe(load: dict) -> list[str]:
    """One line per busy process, for warnings and `mwbench env`."""
    return [f"pid {p['pid']} `{p['command']}` used {p['cpu_share']:.0%} of a CPU "
            f"(CPUs {p['cpus_allowed'] or '?'}, nice {p['nice']})"
            for p in load.get("busy_processes", [])]


def _cpu_ticks() -> dict[int, int]:
    ticks = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        ticks[int(entry.name)] = int(fields[11]) + int(fields[12])  # utime + stime
    return ticks


def _own_tree() -> set[int]:
    """This process, its parents up to init, and its children: not "other work"."""
    pids, pid = {os.getpid()}, os.getpid()
    while pid > 1:
        pid = int(_status(pid, "PPid") or 0)
        pids.add(pid)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(_status(int(entry.name), "PPid") or 0) == os.getpid():
            pids.add(int(entry.name))
    return pids


def _status(pid: int, key: str) -> str | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _nice(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return None


def _command(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:80] or "?"


def _loadavg() -> list[float] | None:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except (OSError, ValueError):
        return None
