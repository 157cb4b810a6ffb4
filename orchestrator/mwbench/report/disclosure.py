"""Full disclosure and the warnings a reader must see before any figure.

In the spirit of a full-disclosure report: everything needed to reproduce a
figure (machine, kernel, CPU governor and idle driver, compiler, middleware
versions, commit, the spec itself) and every condition that weakens it
(placement left to the scheduler, no idle hold, more busy threads than CPUs,
other processes busy on the machine, failed cells, calls slowed on purpose).
"""

from .. import machine_load
from ..crowding import busy_threads
from ..hosts.disclosure import differences
from .data import Run


def facts(run: Run) -> list[tuple[str, str]]:
    env = run.environment
    machine, build, git = env.get("machine", {}), env.get("build") or {}, env.get("git", {})
    packages = env.get("middleware_packages", {})
    python = env.get("python", {})
    commit = git.get("commit") or "unknown"
    if git.get("dirty"):
        commit += " (with uncommitted changes)"
    return [
        ("run", f"{run.id}: suite {run.suite}, {run.status}, "
                f"{run.started_utc} to {run.finished_utc or '?'}"),
        ("spec file", run.spec_path),
        ("launches", _launches(run)),
        ("machine", f"{machine.get('cpu_model')}, {machine.get('cpu_count')} CPUs, "
                    f"{(machine.get('memory_kb') or 0) // 1024} MiB, "
                    f"{machine.get('virtualization') or 'bare metal'}"),
        ("kernel", env.get("kernel", {}).get("release", "?")),
        ("load at start", _load(env.get("machine_load"))),
        ("CPU governor", machine.get("cpu_governor") or "not exposed"),
        ("cpuidle", f"{machine.get('cpuidle_driver')} (governor "
                    f"{machine.get('cpuidle_governor')})"),
        ("clocksource", str(machine.get("clocksource"))),
        ("compiler", f"{build.get('compiler_id')} {build.get('compiler_version')}, "
                     f"{build.get('build_type')}, "
                     f"flags '{(build.get('cxx_flags') or '').strip()}'"),
        ("middleware", ", ".join(f"{name} {version}" for name, version in packages.items()
                                 if version) or "none recorded"),
        ("mwbench", f"{env.get('mwbench_version')}, commit {commit}"),
        ("python", f"{python.get('version')}; " + ", ".join(
            f"{name} {version}" for name, version in python.get("packages", {}).items())),
        *host_facts(run.hosts),
        *jvm_facts(run.cells),
    ]


def jvm_facts(cells: list[dict]) -> list[tuple[str, str]]:
    """The JVMs the Java driver measured on (its result headers' middleware_config.jvm):
    one line per VM, collector and flags; the heap, sized per cell, as a range."""
    heaps: dict[tuple, list[int]] = {}
    for cell in cells:
        for header in (cell.get("measurer_header"), cell.get("server_header")):
            jvm = ((header or {}).get("middleware_config") or {}).get("jvm")
            if not isinstance(jvm, dict):
                continue
            # The heap is sized per cell, and the crash file lies in the cell's own folder.
            flags = tuple(a for a in jvm.get("input_arguments") or []
                          if not a.startswith(("-Xms", "-Xmx", "-D", "-XX:ErrorFile=")))
            key = (f"{jvm.get('vm_name')} {jvm.get('runtime_version')}",
                   " + ".join(jvm.get("collectors") or []), " ".join(flags))
            heaps.setdefault(key, []).append(int(jvm.get("max_heap_bytes") or 0) >> 20)
    lines = []
    for (vm, collectors, flags), mib in heaps.items():
        heap = f"{min(mib)} MiB" if min(mib) == max(mib) else f"{min(mib)}-{max(mib)} MiB"
        lines.append(("JVM", f"{vm}; collectors {collectors}; fixed heap {heap} (-Xms = -Xmx); "
                             f"flags {flags}"))
    return lines


def host_facts(hosts: dict | None) -> list[tuple[str, str]]:
    """One line per host of a run across hosts: how it was reached, and what it is."""
    lines = []
    for name, entry in (hosts or {}).items():
        env = entry.get("environment")
        if env is None:
            lines.append((f"host {name}", f"{entry['reach']}: not disclosed ({entry['error']})"))
            continue
        machine, git = env.get("machine", {}), env.get("git", {})
        lines.append((f"host {name}", (
            f"{entry['reach']}, drivers bound to {entry['bind']}; {machine.get('hostname')}: "
            f"{machine.get('cpu_model')}, {machine.get('cpu_count')} CPUs, kernel "
            f"{env.get('kernel', {}).get('release')}, mwbench {env.get('mwbench_version')} "
            f"commit {git.get('commit') or 'unknown'}, build {entry['build']}")))
    return lines


def warnings(run: Run) -> list[str]:
    cells = run.cells
    found = []
    cpus = run.environment.get("machine", {}).get("cpu_count") or 0
    unpinned = sum(1 for c in cells if c["placement"] == "unpinned")
    if unpinned:
        found.append(f"{unpinned} cells ran unpinned: the scheduler placed client and server, "
                     "so cross-CPU wake-ups may be mixed into their figures.")
    no_hold = sum(1 for c in cells if not c["idle_hold"])
    if no_hold:
        found.append(f"{no_hold} cells ran without the idle hold: CPUs could enter deep idle "
                     "states between calls, which adds wake-up latency.")
    lost = sum(1 for c in cells if c["idle_hold"] and c["idle_hold_held"] is False)
    if lost:
        found.append(f"{lost} cells asked for the idle hold but could not take it "
                     "(/dev/cpu_dma_latency not writable).")
    crowded = [c for c in cells
               if busy_threads(c["mode"], c["threads"], c["background"],
                               c.get("subscribers")).total > cpus > 0]
    if crowded:
        found.append(f"{len(crowded)} cells had more busy threads than the machine's {cpus} "
                     "CPUs, counting client threads, the server threads serving them (one "
                     "per client thread in a remote cell; a fan-out's subscribers, all woken "
                     "by each event) and background-load workers: "
                     "threads wait for a CPU as well as for the middleware. Experiments: "
                     f"{', '.join(dict.fromkeys(c['experiment'] for c in crowded))}; each "
                     "such cell's notes give its count.")
    if busy := machine_load.describe(run.environment.get("machine_load") or {}):
        found.append("Other processes were using CPU when the run started, and compete with "
                     "the cells that run on the same CPUs (same-cpu placement pins both ends "
                     "to CPU 0): " + "; ".join(busy) + ".")
    for line in differences(run.hosts):
        found.append(f"Figures across hosts compare unlike machines: {line}.")
    undisclosed = [name for name, entry in (run.hosts or {}).items() if not entry.get(
        "environment")]
    if undisclosed:
        found.append(f"Hosts {', '.join(undisclosed)} could not be asked what they are "
                     "(`mwbench env`); their cells' figures lack that disclosure.")
    single = sum(1 for e in run.experiments for c in e.configurations if len(c.launches) == 1)
    if single:
        found.append(f"{single} configuration(s) were measured by one launch (one set of "
                     "processes): a process pair settles near one of a few levels, so each "
                     "such figure is a draw from that spread and has no interval; compare "
                     "them with care, or run them with launches: 5 or more.")
    failed = run.failed_cells
    if failed and len(failed) == len(cells):
        found.append(f"Every cell of this run failed ({len(failed)}): there is nothing to plot. "
                     "The reasons are listed below.")
    elif failed:
        found.append(f"{len(failed)} of {len(cells)} cells failed; their reasons are listed "
                     "with their experiments.")
    slowed = sum(1 for c in cells if (c["measurer_header"] or {}).get("injected_delay_ns"))
    if slowed:
        found.append(f"{slowed} cells were slowed on purpose (MWBENCH_INJECT_DELAY_NS): they "
                     "test mwbench itself and say nothing about the middleware.")
    if run.status in _UNFINISHED:
        found.append(f"{_UNFINISHED[run.status]}: it did not measure every cell of its spec.")
    elif run.status != "finished":
        found.append(f"The run is {run.status}: it did not measure every cell of its spec.")
    return found


_UNFINISHED = {
    "running": "The run is still running",
    "interrupted": "The run was interrupted (Ctrl-C, SIGTERM or SIGHUP)",
    "abandoned": "The run was abandoned: its process ended without finishing it (killed "
                 "outright, or the machine stopped)",
}


def _launches(run: Run) -> str:
    """How many launches measured each configuration, in what order, chosen how."""
    counts = sorted({len(c.launches) for e in run.experiments for c in e.configurations
                     if c.ok})
    per = "–".join(str(n) for n in (counts[:1] + counts[-1:] if len(counts) > 1 else counts))
    text = f"{per or 0} per configuration, each a new set of processes; "
    if run.seed is None:
        text += ("in the spec's order, one launch of every cell after another (stored before "
                 "mwbench ordered launches at random)")
    else:
        text += (f"in randomised blocks (every configuration's k-th launch before any "
                 f"(k+1)-th), order drawn from seed {run.seed}: `mwbench run "
                 f"{run.spec_path} --seed {run.seed}` repeats it")
    if run.launch_plan and run.launch_plan.get("budget_s"):
        text += (f"; launches and samples chosen for a budget of "
                 f"{run.launch_plan['budget_s']:g} s from the variance measured on this "
                 "machine")
    overrides = (run.launch_plan or {}).get("overrides") or {}
    given = [f"--filter {' '.join(overrides['experiments'])}"] if "experiments" in overrides \
        else []
    given += [f"--{key} {overrides[key]}" for key in ("samples", "launches") if key in overrides]
    if given:
        text += f"; the spec overridden on the command line: {', '.join(given)}"
    return text


def _load(load: dict | None) -> str:
    if not load or load.get("loadavg") is None:
        return "not recorded"
    busy = len(load.get("busy_processes", []))
    return (f"load average {', '.join(f'{x:.2f}' for x in load['loadavg'])} (1, 5, 15 min); "
            f"{busy or 'no'} other process{'es' if busy != 1 else ''} busy")
