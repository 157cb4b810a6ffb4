"""Stopping a run cleanly on SIGINT, SIGTERM and SIGHUP alike.

Ctrl-C, `timeout`, a CI cancellation, systemd and a closed terminal send
different signals and mean the same thing: stop now. The signal handler only
notes the signal. Raising from a handler, as Python's default Ctrl-C does,
can land between a lock's acquire and its release (subprocess.Popen's own
waitpid lock, a console's lock) and leave the lock held, so that the clean-up
then waits on it for ever. Instead the run looks at the note where it waits:
`check()` in every loop that waits for a child process, a file or a socket,
`pause()` in place of their sleeps, and between cells. There it raises
`Interrupted` (a KeyboardInterrupt, so that the `finally` blocks that stop the
cell's processes and remove its files run), and the verb exits with 128 + the
signal's number, as a shell reports a process killed by that signal.

The clean-up never checks, so further signals cannot cut it short; a third
signal ends the process at once, leaving what it started to the next run
(ledger.py), for a user who would rather not wait.
"""

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
SIGNALS_TO_LEAVE_AT_ONCE = 3


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived; `exit_status` is what the verb exits with."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


class _State:
    taken: int | None = None  # the first stop signal
    count = 0  # stop signals received
    raised = False  # whether Interrupted has been raised for it


def _handler(signum: int, _frame) -> None:
    _State.count += 1
    if _State.taken is None:
        _State.taken = signum
    if _State.count >= SIGNALS_TO_LEAVE_AT_ONCE:
        os._exit(128 + _State.taken)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP are noted for `check()`."""
    previous = {signum: signal.signal(signum, _handler) for signum in SIGNALS}
    _State.taken, _State.count, _State.raised = None, 0, False
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def check() -> None:
    """Raise Interrupted if a stop signal has arrived (once: the clean-up it starts
    must not be interrupted again)."""
    if _State.taken is not None and not _State.raised:
        _State.raised = True
        raise Interrupted(_State.taken)


def pause(seconds: float) -> None:
    """Sleep, then check(): the sleep of a loop that waits for something."""
    time.sleep(seconds)
    check()


def stopping() -> bool:
    """Whether a stop signal has arrived."""
    return _State.taken is not None
