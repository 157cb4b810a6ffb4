"""How a verb that measures (`run`, `saturate`, `interop`) ends when it cannot begin.

Its work runs with the stop signals caught (interruption.py). Input it refuses
(a spec, an inventory, a database, a budget: the errors the verb names) is one
line, `mwbench VERB: what is wrong`, and exit status 2; a stop signal that came
before anything ran is one line and 128 + the signal's number. Once it has
begun, the verb says itself what a stop signal left.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from ..interruption import Interrupted, stop_on_signals

EXIT_BAD_INPUT = 2


@contextmanager
def refused_or_begun(verb: str, errors: tuple[type[Exception], ...], nothing_ran: str
                     ) -> Iterator[None]:
    """The body, with the stop signals caught; `errors` refused, exit 2; a stop signal
    raised out of it said to have come before `nothing_ran` ("any cell ran")."""
    with stop_on_signals():
        try:
            yield
        except errors as error:
            click.echo(f"mwbench {verb}: {error}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except Interrupted as interrupted:
            click.echo(f"mwbench {verb}: stopped by {interrupted} before {nothing_ran}",
                       err=True)
            sys.exit(interrupted.exit_status)
