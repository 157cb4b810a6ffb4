"""`mwbench list`: the drivers this machine can run, what each supports, and the suites."""

import dataclasses
import json

import click
from rich.table import Table

from .. import paths
from ..drivers import all_drivers
from ..spec import SpecError, load_spec
from .console import make_console


@click.command("list")
@click.option("--json", "as_json", is_flag=True,
              help="Print the same as one JSON object, for scripts (README, `mwbench list`).")
def command(as_json: bool) -> None:
    """List drivers (with their operations, modes and transports) and built-in suites.

    \b
    Examples:
      mwbench list
      mwbench list --json | jq '.drivers[] | select(.available) | .name'
    """
    if as_json:
        click.echo(json.dumps(_listing(), indent=2))
        return
    console = make_console()
    table = Table(title="Drivers")
    for heading in ("driver", "available", "middleware", "operations", "modes: transports",
                    "options (--option KEY=VALUE)"):
        table.add_column(heading)
    drivers = all_drivers()
    for driver in drivers:
        if not driver.available:
            table.add_row(driver.name, "[red]no[/] (see below)", "", "", "", "")
            continue
        operations = ", ".join(
            f"{name}{' (payload)' if info.get('payload') else ''}"
            for name, info in driver.operations.items()
        )
        modes = "\n".join(f"{mode}: {', '.join(ts)}" for mode, ts in driver.modes.items())
        options = ", ".join(driver.options)
        table.add_row(driver.name, "yes", f"{driver.middleware} {driver.middleware_version}",
                      operations, modes, options)
    console.print(table)
    for driver in drivers:
        if not driver.available:
            console.print(f"[red]{driver.name} is not available[/]: {driver.reason}")
        for key, text in driver.options.items():
            values = driver.option_values.get(key)
            accepted = f" (values: {', '.join(values)})" if values else ""
            console.print(f"  {driver.name} --option {key}: {text}{accepted}")
        for what, bound in (("client threads", driver.max_threads),
                            ("servants", driver.max_servants),
                            ("fan-out subscribers", driver.max_subscribers)):
            if bound is not None:
                console.print(f"  {driver.name} runs at most {bound} {what}")
        if driver.open_loop:
            console.print(f"  {driver.name} runs in an open loop (load constant:RATE, "
                          f"poisson:RATE): {', '.join(driver.open_loop)}")

    suites = Table(title="Built-in suites")
    suites.add_column("file")
    suites.add_column("description")
    for suite in _suites():
        suites.add_row(suite["file"], suite["description"] if suite["error"] is None
                       else f"[red]invalid[/]: {suite['error']}")
    console.print(suites)


def _suites() -> list[dict]:
    """Each built-in suite: its file, its description, and why it is invalid (or None)."""
    found = []
    for path in sorted(paths.suites_dir().glob("*.yaml")):
        try:
            spec, _ = load_spec(path)
            found.append({"file": str(path.relative_to(paths.repo_root())),
                          "description": spec.description or "", "error": None})
        except SpecError as error:
            found.append({"file": str(path), "description": "", "error": str(error)})
    return found


def _listing() -> dict:
    """What the tables say, as data: every driver's description (drivers.py's DriverInfo,
    its program as a path) and the suites."""
    drivers = [{**dataclasses.asdict(driver), "program": str(driver.program),
                "host_local": list(driver.host_local), "open_loop": list(driver.open_loop)}
               for driver in all_drivers()]
    return {"drivers": drivers, "suites": _suites()}
