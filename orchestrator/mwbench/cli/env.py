"""`mwbench env`: full disclosure of this machine, the build and the software."""

import json

import click

from .. import environment, machine_load


@click.command("env")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (as stored with every run).")
def command(as_json: bool) -> None:
    """Show what every run records about the machine it ran on.

    \b
    Examples:
      mwbench env
      mwbench env --json > machine.json
    """
    facts = environment.collect()
    if as_json:
        click.echo(json.dumps(facts, indent=2))
        return
    for section, content in facts.items():
        if section == "machine_load":
            click.echo(f"{section}:\n  loadavg: {content['loadavg']}")
            for line in machine_load.describe(content) or ["no other process busy"]:
                click.echo(f"  {line}")
        elif isinstance(content, dict):
            click.echo(f"{section}:")
            for key, value in _flatten(content):
                click.echo(f"  {key}: {'-' if value is None else value}")
        else:
            click.echo(f"{section}: {content}")


def _flatten(content: dict, prefix: str = ""):
    for key, value in content.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value
