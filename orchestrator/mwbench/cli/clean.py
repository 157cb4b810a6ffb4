"""`mwbench clean`: stop and remove what runs killed outright left behind."""

import sys

import click

from .. import testhosts
from ..ledger import other_runs, state_dir
from ..leftovers import LeftoverError, clean_dead_runs

EXIT_NOT_REMOVED = 1


@click.command("clean")
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
def command(dry_run: bool) -> None:
    """Stop the processes and remove the files of mwbench runs whose process is gone.

    A run killed with SIGKILL (or by the out-of-memory killer, or a crash of
    Python itself) cannot stop its driver processes or its middleware daemon
    (iceoryx's RouDi), nor remove its scratch directories and shared-memory
    files. Every run keeps a ledger of them in mwbench's state directory;
    this verb reads the ledgers of dead runs, kills what is left of their
    process groups, removes their files, and marks their runs `abandoned`.
    It also removes the test hosts (network namespaces, `mwbench testhosts`)
    of processes that died without removing them.
    `mwbench run` does the same before its first cell. Live runs are listed
    and left alone.

    Exits 0 when nothing is left, 1 when something could not be removed (each
    is named with the command that removes it).

    \b
    Examples:
      mwbench clean --dry-run
      mwbench clean
    """
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
    verb = "would remove" if dry_run else "removed"
    for line in found:
        click.echo(f"{verb}: {line}")
    if not found:
        click.echo(f"nothing left by a dead run (ledgers in {state_dir()})")
