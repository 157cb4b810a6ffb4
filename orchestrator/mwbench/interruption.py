"""Stopping a run cleanly on SIGINT, SIGTERM and SIGHUP alike.

Ctrl-C, `timeout`, a CI cancellation, systemd and a closed terminal send
different signals and mean the same thing: stop now. Each becomes an
`Interrupted` exception in the main thread (a KeyboardInterrupt, so the
`finally` blocks that stop child processes, daemons and background loads and
remove scratch directories run for all three), and the verb exits with
128 + the signal's number, as a shell reports a process killed by it.

Once the first signal has been taken, later ones are ignored: the clean-up it
started must not be cut short by an impatient second Ctrl-C. A few short
steps must not be cut in two at all (a child started but not yet recorded, a
cell stored but not yet counted): `deferred()` holds a signal until its block
has ended.
"""

import signal
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived; `exit_status` is what the verb exits with."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


class _State:
    taken: int | None = None  # the signal that started the stop
    pending: int | None = None  # a signal that arrived inside deferred()
    deferring = 0


def _handler(signum: int, _frame) -> None:
    if _State.taken is not None:
        return
    if _State.deferring:
        _State.pending = _State.pending or signum
        return
    _State.taken = signum
    raise Interrupted(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP raise Interrupted (once)."""
    previous = {signum: signal.signal(signum, _handler) for signum in SIGNALS}
    _State.taken = _State.pending = None
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold a stop signal that arrives within the block until the block has ended."""
    _State.deferring += 1
    try:
        yield
    finally:
        _State.deferring -= 1
    if not _State.deferring and _State.pending is not None and _State.taken is None:
        _State.taken, _State.pending = _State.pending, None
        raise Interrupted(_State.taken)


def stopping() -> bool:
    """Whether a stop signal has been taken (the clean-up it started is under way)."""
    return _State.taken is not None
