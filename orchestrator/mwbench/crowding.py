"""More busy threads than CPUs: the one rule the run's notes and the report's warning share.

A thread that wants a CPU and has none waits for the scheduler as well as for
the middleware, so its time per call measures the machine's crowding, not the
middleware. A cell's busy threads are counted as

    client threads        `threads` (1 when unset)
  + server threads        remote cells: one per client thread. Each call in
                          flight holds one server thread, whether the server
                          gives each connection its own thread (omniORB's
                          thread-per-connection, rawtcp) or hands calls to a
                          pool, and a shared connection with several calls in
                          flight is served by as many threads.
                          Collocated cells: none (the call runs on the
                          client's thread).
  + background workers    N for `background: cpu:N`, 0 for `none`

A fan-out cell (operation `fanout`) counts its publisher as the client thread
and each of its N subscribers as a server thread, remote or collocated: every
event wakes all N subscribers at once, and each wants a CPU to reply.

and compared with the machine's CPU count, whatever the placement: pinning
both ends to one CPU is a choice the placement already records; this count
asks whether the machine had a CPU for every thread that can want one. It is
an upper bound: a client thread and its server thread mostly take turns, so
one remote round trip (2 threads) on a 2-CPU machine is not crowded, but two
of them in parallel are.
"""

from dataclasses import dataclass

from .factors import BACKGROUND_NONE, background_workers

CROWDED = "crowded: "  # how a crowded cell's note begins


@dataclass(frozen=True)
class BusyThreads:
    client: int
    server: int
    background: int

    @property
    def total(self) -> int:
        return self.client + self.server + self.background

    def describe(self) -> str:
        return (f"{self.total} busy threads ({self.client} client + {self.server} server + "
                f"{self.background} background)")


def busy_threads(mode: str | None, threads: int | None, background: str | None,
                 subscribers: int | None = None) -> BusyThreads:
    client = threads or 1
    server = client if mode == "remote" else 0
    if subscribers is not None:
        server = subscribers
    return BusyThreads(client, server, background_workers(background or BACKGROUND_NONE))


def crowding_note(busy: BusyThreads, cpus: int) -> str | None:
    """The note a crowded cell carries, or None when every busy thread has a CPU."""
    if cpus <= 0 or busy.total <= cpus:
        return None
    return (f"{CROWDED}{busy.describe()} exceed the machine's {cpus} CPUs; threads wait for "
            "a CPU as well as for the middleware")
