"""How far a run is: a bar on a terminal, plain lines with an ETA anywhere else.

rich's bar redraws one line in place, which a log file or CI cannot show (it
drops a transient bar), so output that is not a terminal gets a line of its
own instead, after a launch when INTERVAL_S or more have passed since the last
line, and after the last launch: launches done of the total, time elapsed, and
the time left at the pace so far.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

INTERVAL_S = 10.0


class PlainProgress:
    """Lines `progress: 12/40 launches, 0:00:31 elapsed, about 0:01:12 left (LABEL)`."""

    def __init__(self, console: Console, total: int, interval_s: float = INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic):
        self.console, self.total, self.interval_s, self.clock = console, total, interval_s, clock
        self.done = 0
        self.started = self.last_line = clock()

    def advance(self, label: str) -> None:
        """One launch finished (`label` says which)."""
        self.done += 1
        now = self.clock()
        if now - self.last_line < self.interval_s and self.done < self.total:
            return
        self.last_line = now
        elapsed = now - self.started
        left = elapsed / self.done * (self.total - self.done)
        self.console.print(f"progress: {self.done}/{self.total} launches, {_clock(elapsed)} "
                           f"elapsed, about {_clock(left)} left ({escape(label)})",
                           highlight=False)


def _clock(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


class _Bar:
    def __init__(self, progress: Progress, total: int):
        self.progress = progress
        self.task = progress.add_task("", total=total)

    def start(self, label: str) -> None:
        self.progress.update(self.task, description=label)

    def advance(self, _label: str) -> None:
        self.progress.advance(self.task)


class _Lines(PlainProgress):
    def start(self, _label: str) -> None:
        pass


@contextmanager
def launches_progress(console: Console, total: int) -> Iterator["_Bar | _Lines"]:
    """What shows the progress of `total` launches on `console`: `start(label)` before
    a launch, `advance(label)` after it."""
    if not console.is_terminal:
        yield _Lines(console, total)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        yield _Bar(progress, total)
