"""`mwbench clean`: stop and remove what runs killed outright left behind."""

import sys
from pathlib import Path

import click

from testsupport import testhosts

from ..hosts.inventory import InventoryError, load_inventory
from ..hosts.launcher import HostFailure
from ..hosts.ssh import sweep_cells
from ..ledger import other_runs, state_dir
from ..leftovers import LeftoverError, clean_dead_runs

EXIT_NOT_REMOVED = 1
EXIT_BAD_INPUT = 2


@click.command("clean")
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
@click.option("--inventory", type=click.Path(path_type=Path, exists=True, dir_okay=False),
              default=None, envvar="MWBENCH_INVENTORY", show_envvar=True,
              help="Also remove, on each SSH host of this inventory, the cell directories "
                   "of sessions that are gone.")
def command(dry_run: bool, inventory: Path | None) -> None:
    """Stop the processes and remove the files of mwbench runs whose process is gone.

    A run killed with SIGKILL (or by the out-of-memory killer, or a crash of
    Python itself) cannot stop its driver processes or its middleware daemon
    (iceoryx's RouDi), nor remove its scratch directories and shared-memory
    files. Every run keeps a ledger of them in mwbench's state directory;
    this verb reads the ledgers of dead runs, kills what is left of their
    process groups, removes their files, and marks their runs `abandoned`.
    It also removes the test hosts (network namespaces, `mwbench testhosts`)
    of processes that died without removing them, and with --inventory, on
    each SSH host of a lab, the cell directories of sessions that are gone.
    `mwbench run` does the same before its first cell. Live runs are listed
    and left alone.

    Exits 0 when nothing is left, 1 when something could not be removed (each
    is named with the command that removes it), 2 for an invalid inventory
    (nothing is removed).

    \b
    Examples:
      mwbench clean --dry-run
      mwbench clean
      mwbench clean --inventory lab.yaml
    """
    try:  # a bad inventory is refused before anything is removed
        hosts = load_inventory(inventory) if inventory is not None else {}
    except InventoryError as error:
        click.echo(f"mwbench clean: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for run in other_runs():
        if run.alive:
            click.echo(f"{run.describe()} is running: left alone")
    try:
        found = clean_dead_runs(dry_run=dry_run)
    except LeftoverError as error:
        click.echo(f"mwbench clean: could not remove everything:\n{error}", err=True)
        sys.exit(EXIT_NOT_REMOVED)
    if not dry_run and testhosts.unavailable() is None:
        found += [f"test host {name}, whose maker is gone" for name in testhosts.remove_dead()]
    not_reached = []
    if not dry_run:
        for host in hosts.values():
            if host.kind != "ssh":
                continue
            try:
                found += [f"{path} on host {host.describe()}" for path in sweep_cells(host)]
            except HostFailure as failure:
                not_reached.append(str(failure))
    verb = "would remove" if dry_run else "removed"
    for line in found:
        click.echo(f"{verb}: {line}")
    if not found:
        click.echo(f"nothing left by a dead run (ledgers in {state_dir()})")
    for failure in not_reached:
        click.echo(f"mwbench clean: {failure}", err=True)
    if not_reached:
        sys.exit(EXIT_NOT_REMOVED)
