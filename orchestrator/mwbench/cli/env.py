"""`mwbench env`: full disclosure of this machine (or of every host of an inventory),
the build and the software."""

import json
import sys
from pathlib import Path

import click

from .. import environment, machine_load
from ..hosts import disclosure
from ..hosts.inventory import InventoryError, load_inventory

EXIT_BAD_INPUT = 2
EXIT_HOST_UNANSWERED = 1


@click.command("env")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (as stored with every run).")
@click.option("--inventory", type=click.Path(path_type=Path), default=None,
              help="Ask every host of this inventory (each runs its own `mwbench env`).")
def command(as_json: bool, inventory: Path | None) -> None:
    """Show what every run records about the machine it ran on.

    With --inventory, every host of the inventory is asked (over SSH for
    SSH hosts, with the host's own checkout), as a run across hosts does
    before its first cell, and what differs between them is named. Exits 1
    if a host could not be asked.

    \b
    Examples:
      mwbench env
      mwbench env --json > machine.json
      mwbench env --inventory lab.yaml
    """
    if inventory is not None:
        _hosts(inventory, as_json)
        return
    facts = environment.collect()
    if as_json:
        click.echo(json.dumps(facts, indent=2))
        return
    _show(facts, "")


def _hosts(path: Path, as_json: bool) -> None:
    try:
        hosts = load_inventory(path)
    except InventoryError as error:
        click.echo(f"mwbench env: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    launchers = {name: disclosure.launcher(host) for name, host in hosts.items()}
    try:
        disclosed = disclosure.disclose(launchers)
    finally:
        for launcher in launchers.values():
            launcher.close()
    if as_json:
        click.echo(json.dumps(disclosed, indent=2))
    else:
        for name, entry in disclosed.items():
            click.echo(f"host {name} ({entry['reach']}, drivers bound to {entry['bind']}):")
            if entry["environment"] is None:
                click.echo(f"  not disclosed: {entry['error']}")
            else:
                _show(entry["environment"], "  ")
        for line in disclosure.differences(disclosed):
            click.echo(f"warning: {line}")
    if any(entry["environment"] is None for entry in disclosed.values()):
        sys.exit(EXIT_HOST_UNANSWERED)


def _show(facts: dict, indent: str) -> None:
    for section, content in facts.items():
        if section == "machine_load":
            click.echo(f"{indent}{section}:\n{indent}  loadavg: {content['loadavg']}")
            for line in machine_load.describe(content) or ["no other process busy"]:
                click.echo(f"{indent}  {line}")
        elif isinstance(content, dict):
            click.echo(f"{indent}{section}:")
            for key, value in _flatten(content):
                click.echo(f"{indent}  {key}: {'-' if value is None else value}")
        else:
            click.echo(f"{indent}{section}: {content}")


def _flatten(content: dict, prefix: str = ""):
    for key, value in content.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value
