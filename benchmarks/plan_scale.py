"""How the plan tools scale with the plan: `mwccm-plan check` and
`mwccm-plan-compile` on chains of N relays (components/scale/, Scale::Relay),
in both formats, each run timed (wall clock) with its peak resident memory.

    .venv/bin/python benchmarks/plan_scale.py [--build build] [--sizes 1000 10000 20000 100000]
        [--repeat 3] [--keep DIR]

Each plan is a chain: relay i's receptacle `next` uses relay i+1's facet
`input`, with attribute `index` set, 100 relays per component server, the
servers on two nodes (as make_scale_plan.py lays them out). The tools read the
relay's interface from the build (Scale_Relay.ccd); the compiler assembles
every server in one process (--one-process). Printed: one Markdown row per
tool, format and size, the median of the repetitions (for docs/performance.md).
Generating the plans is `write_config_plan` and `write_cdp_plan`, which tests
may import.
"""

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path
from statistics import median

REPO = Path(__file__).resolve().parents[1]
PER_SERVER = 100
NODES = 2
HOME = "mwccm_home_Scale_RelayHome"
ARTIFACT = "libmwccm_scale_module.so"


def _layout(index: int) -> tuple[str, str]:
    """The node and component server of relay `index`."""
    server = index // PER_SERVER
    return f"node_{server % NODES}", f"server_{server}"


def write_config_plan(path: Path, instances: int) -> Path:
    """A chain of `instances` relays in DnCX11's .config format."""
    with path.open("w") as out:
        out.write(f'nl.remedy.it.DnCX11.Property mwccm.Label "Scale: {instances} relays"\n')
        for i in range(instances):
            node, server = _layout(i)
            out.write(f"nl.remedy.it.CCM.Component relay_{i} scale {HOME}\n")
            if i == 0:
                out.write(f'    nl.remedy.it.DnCX11.Artifact scale "{ARTIFACT}"\n')
            out.write(f'    nl.remedy.it.DnCX11.Node "{node}"\n'
                      f'    nl.remedy.it.DnCX11.Locality "{server}"\n'
                      f"    nl.remedy.it.DnCX11.ConfigProperty index uint32:{i}\n")
            if i + 1 < instances:
                out.write(f"    nl.remedy.it.DnCX11.Connection relay_{i + 1}\n      next < input\n")
    return path


def _endpoint(port: str, provider: bool, kind: str, instance: int) -> str:
    return (f"<internalEndpoint><portName>{port}</portName><provider>{str(provider).lower()}"
            f"</provider><kind>{kind}</kind><instance xmi:idref=\"relay_{instance}\"/>"
            "</internalEndpoint>")


def write_cdp_plan(path: Path, instances: int) -> Path:
    """The same chain as a D&C .cdp: the localities as the .config reader derives
    them (one SameProcess per server, one DifferentProcess per node over each
    server's first relay)."""
    with path.open("w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<Deployment:DeploymentPlan xmlns:Deployment="http://www.omg.org/Deployment"'
                  ' xmlns:xmi="http://www.omg.org/XMI">\n'
                  f"<label>Scale: {instances} relays</label>\n"
                  '<implementation xmi:id="scale_impl"><name>scale</name>'
                  '<artifact xmi:idref="scale"/><execParameter>'
                  "<name>mwccm.HomeEntrypoint</name><value><type><kind>tk_string</kind></type>"
                  f"<value><string>{HOME}</string></value></value></execParameter>"
                  "</implementation>\n")
        servers: dict[str, list[int]] = {}
        for i in range(instances):
            node, server = _layout(i)
            servers.setdefault(server, []).append(i)
            out.write(f'<instance xmi:id="relay_{i}"><name>relay_{i}</name><node>{node}</node>'
                      '<implementation xmi:idref="scale_impl"/><configProperty><name>index</name>'
                      "<value><type><kind>tk_ulong</kind></type>"
                      f"<value><ulong>{i}</ulong></value></value></configProperty></instance>\n")
        for i in range(instances - 1):
            out.write(f"<connection><name>relay_{i}.next</name>"
                      + _endpoint("next", False, "SimplexReceptacle", i)
                      + _endpoint("input", True, "Facet", i + 1) + "</connection>\n")
        firsts: dict[str, list[int]] = {}
        for members in servers.values():
            firsts.setdefault(_layout(members[0])[0], []).append(members[0])
            out.write(_constraint("SameProcess", members))
        for members in firsts.values():
            if len(members) > 1:
                out.write(_constraint("DifferentProcess", members))
        out.write(f'<artifact xmi:id="scale"><name>scale</name><location>{ARTIFACT}</location>'
                  "</artifact>\n</Deployment:DeploymentPlan>\n")
    return path


def _constraint(kind: str, members: list[int]) -> str:
    refs = "".join(f'<constrainedInstance xmi:idref="relay_{i}"/>' for i in members)
    return f"<localityConstraint><constraint>{kind}</constraint>{refs}</localityConstraint>\n"


def measure(command: list) -> tuple[float, int, int]:
    """Wall-clock seconds, peak resident KiB and exit status of one run."""
    begin = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - begin
    if process.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {process.stderr.read().decode()[:500]}")
    process.stderr.close()
    return seconds, usage.ru_maxrss, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=REPO / "build")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 20000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the plans here and keep them")
    arguments = parser.parse_args()
    tools = arguments.build / "components" / "deployment"
    interfaces = ["--interfaces", str(arguments.build / "components" / "scale")]
    print("| tool | format | instances | seconds | peak RSS (MiB) |\n"
          "| --- | --- | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as scratch:
        directory = arguments.keep or Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        for size in arguments.sizes:
            plans = {"config": write_config_plan(directory / f"scale_{size}.config", size),
                     "cdp": write_cdp_plan(directory / f"scale_{size}.cdp", size)}
            for form, plan in plans.items():
                commands = {
                    "mwccm-plan check": [tools / "mwccm-plan", "check", plan, *interfaces],
                    "mwccm-plan-compile": [tools / "mwccm-plan-compile", plan, "-o",
                                           directory / f"compiled_{form}_{size}", "--one-process",
                                           "--tables-only", *interfaces],
                }
                for name, command in commands.items():
                    runs = [measure(command) for _ in range(arguments.repeat)]
                    seconds = median(r[0] for r in runs)
                    rss = median(r[1] for r in runs) / 1024
                    print(f"| {name} | .{form} | {size:,} | {seconds:.3f} | {rss:.0f} |",
                          flush=True)


if __name__ == "__main__":
    main()
