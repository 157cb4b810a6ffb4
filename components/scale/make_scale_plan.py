#!/usr/bin/env python3
"""Write a plan of N relays (Scale.idl3) in DnCX11's .config format: one chain,
each relay's `next` connected to the following relay's `input`, spread over
S component servers in blocks, the servers over K nodes in turn.

    make_scale_plan.py --components 1000 --servers 10 --nodes 2 -o scale_1000.config
"""

import argparse
from pathlib import Path


def plan_text(components: int, servers: int, nodes: int) -> str:
    per_server = -(-components // servers)  # ceiling
    lines = [
        f"# {components} relays in one chain over {servers} component servers on {nodes} "
        "nodes, written by make_scale_plan.py.",
        f'nl.remedy.it.DnCX11.Property mwccm.Label "Scale: {components} relays"',
        f'nl.remedy.it.DnCX11.Property mwccm.UUID "scale-{components}-{servers}-{nodes}"',
    ]
    for index in range(components):
        server = index // per_server
        lines += [
            "",
            f"nl.remedy.it.CCM.Component relay_{index:05d} scale mwccm_home_Scale_RelayHome",
        ]
        if index == 0:
            lines.append('    nl.remedy.it.DnCX11.Artifact scale "libmwccm_scale_module.so"')
        lines += [
            f'    nl.remedy.it.DnCX11.Node "node_{server % nodes}"',
            f'    nl.remedy.it.DnCX11.Locality "server_{server:02d}"',
            f"    nl.remedy.it.DnCX11.ConfigProperty index uint32:{index}",
        ]
        if index + 1 < components:
            lines += [
                f"    nl.remedy.it.DnCX11.Connection relay_{index + 1:05d}",
                "      next < input",
            ]
        if index == 0:
            lines.append('    nl.remedy.it.DnCX11.ConfigProperty mwccm.InstanceIOR "first.ior"')
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--components", type=int, required=True)
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, required=True)
    arguments = parser.parse_args()
    if not 1 <= arguments.nodes <= arguments.servers <= arguments.components:
        parser.error("need 1 <= nodes <= servers <= components")
    arguments.output.write_text(plan_text(arguments.components, arguments.servers, arguments.nodes))


if __name__ == "__main__":
    main()
