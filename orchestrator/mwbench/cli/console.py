"""The console every verb prints through.

rich wraps tables at 80 columns when the output is not a terminal (a log
file, CI); results tables are wider than that, so they get room instead of
being cut into unreadable columns.
"""

import sys

from rich.console import Console

PIPED_WIDTH = 200


def make_console() -> Console:
    return Console() if sys.stdout.isatty() else Console(width=PIPED_WIDTH)
