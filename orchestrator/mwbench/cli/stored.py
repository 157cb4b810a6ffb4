"""Reading a stored run for a verb: open the database, read, close, or fail cleanly.

Every verb that reads results fails the same way on a missing database, an
unknown run or input it cannot use: one line on standard error naming the
verb, and exit status 2.
"""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from .. import paths
from ..store import Store, StoreError

EXIT_BAD_INPUT = 2
T = TypeVar("T")


def read_store(verb: str, db: Path | None, read: Callable[[Store], T],
               errors: tuple[type[Exception], ...] = ()) -> T:
    """`read(store)` on the database `db` (default results/mwbench.db); a StoreError,
    or one of `errors`, ends the verb with its message and status 2."""
    try:
        store = Store.open_existing(db or paths.default_db())
        try:
            return read(store)
        finally:
            store.close()
    except (StoreError, *errors) as error:
        click.echo(f"mwbench {verb}: {error}", err=True)
        sys.exit(EXIT_BAD_INPUT)
