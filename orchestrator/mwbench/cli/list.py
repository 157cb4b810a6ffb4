"""`mwbench list`: the drivers this machine can run, what each supports, and the suites."""

import click
from rich.table import Table

from .. import paths
from ..drivers import all_drivers
from ..spec import SpecError, load_spec
from .console import make_console


@click.command("list")
def command() -> None:
    """List drivers (with their operations, modes and transports) and built-in suites.

    \b
    Example:
      mwbench list
    """
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
            console.print(f"  {driver.name} --option {key}: {text}")
        for what, bound in (("client threads", driver.max_threads),
                            ("servants", driver.max_servants),
                            ("fan-out subscribers", driver.max_subscribers)):
            if bound is not None:
                console.print(f"  {driver.name} runs at most {bound} {what}")

    suites = Table(title="Built-in suites")
    suites.add_column("file")
    suites.add_column("description")
    for path in sorted(paths.suites_dir().glob("*.yaml")):
        try:
            spec, _ = load_spec(path)
            suites.add_row(str(path.relative_to(paths.repo_root())), spec.description or "")
        except SpecError as error:
            suites.add_row(str(path), f"[red]invalid[/]: {error}")
    console.print(suites)
