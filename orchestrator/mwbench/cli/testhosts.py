"""`mwbench testhosts N -- COMMAND`: a command run with N test hosts up, then removed.

The hosts are testsupport's (testsupport/testhosts.py), the package the tests make
hosts with: this verb offers them to a user without a lab, so the test hosts a run
meets are the ones the tests check."""

import ctypes
import functools
import os
import signal
import subprocess
import sys

import click

from testsupport import testhosts

from .numbers import LINK_RATE, TEST_HOSTS

EXIT_UNAVAILABLE = 1


@click.command("testhosts", context_settings={"ignore_unknown_options": True})
@click.argument("count", type=TEST_HOSTS)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--rate", type=LINK_RATE, default=None, metavar="RATE",
              help="Limit each host's link both ways with tc tbf: a number and tc's unit, "
                   "e.g. 100mbit, 1gbit, 10mbps (bps: bytes a second), from 8bit to 1tbit "
                   "(docs/hosts.md).")
def command(count: int, command: tuple[str, ...], rate: str | None) -> None:
    """Run COMMAND with COUNT test hosts: network namespaces that this machine
    reaches over real SSH, as a lab's hosts.

    Each host is a network namespace with an address in 198.19.0.0/16 (the
    benchmarking range of RFC 2544, routed nowhere), joined to the others and
    to this machine by a software switch, and running an OpenSSH server that
    accepts one key, made for the occasion. COMMAND runs with
    MWBENCH_INVENTORY set to their inventory (hosts host-1 to host-COUNT), which
    `mwbench run` reads when given no --inventory. When COMMAND ends, however it
    ends, the servers, namespaces, links and keys are removed; `mwbench clean`
    removes those of a testhosts that was killed outright. Needs root.

    netem (delay, loss) is not in every kernel: where it is missing, --rate
    (tc tbf) is the only link condition.

    Exits with COMMAND's status.

    \b
    Examples:
      mwbench testhosts 3 -- mwbench run suites/hosts.yaml
      mwbench testhosts 2 --rate 100mbit -- mwbench run suites/hosts.yaml --db lab.db
      mwbench testhosts 2 -- sh -c 'cat "$MWBENCH_INVENTORY"'
    """
    if (why := testhosts.unavailable()) is not None:
        click.echo(f"mwbench testhosts: {why}", err=True)
        sys.exit(EXIT_UNAVAILABLE)
    stop = _StopSignals()
    try:
        with stop, testhosts.ssh_hosts(count, rate=rate) as hosts:
            click.echo(f"test hosts {', '.join(h.name for h in hosts.hosts)} up "
                       f"({', '.join(h.address for h in hosts.hosts)}); inventory "
                       f"{hosts.inventory}", err=True)
            environment = {**os.environ, "MWBENCH_INVENTORY": str(hosts.inventory)}
            status = stop.run(list(command), environment)
    except _Stopped as stopped:  # before COMMAND ran: the hosts are removed all the same
        status = 128 + stopped.signum
    except RuntimeError as error:  # a namespace, a link or a server that would not come up
        click.echo(f"mwbench testhosts: {error}", err=True)
        sys.exit(EXIT_UNAVAILABLE)
    sys.exit(status if status >= 0 else 128 - status)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _ends_with(parent: int) -> None:
    """In COMMAND's process, before it starts: SIGTERM when this process ends, however
    (SIGKILL included), so that an inner `mwbench run` stops cleanly instead of going on
    against hosts that are gone. (It follows the thread that started COMMAND: the main
    thread, which lives as long as this process.)"""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it ended before the line above
        os.kill(os.getpid(), signal.SIGTERM)


class _Stopped(Exception):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class _StopSignals:
    """Ctrl-C, SIGTERM and SIGHUP: passed on to COMMAND while it runs, so that it ends
    and the hosts are removed after it; before it runs, they stop the set-up, whose
    `with` removes what it made."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self):
        self.child: subprocess.Popen | None = None
        self._previous: dict = {}

    def __enter__(self):
        self._previous = {signum: signal.signal(signum, self._taken) for signum in self.SIGNALS}
        return self

    def __exit__(self, *exc_info):
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def _taken(self, signum, _frame):
        if self.child is None:
            raise _Stopped(signum)
        self.child.send_signal(signum)

    def run(self, command: list[str], environment: dict) -> int:
        """COMMAND's exit status (127 if it cannot be started)."""
        try:
            self.child = subprocess.Popen(command, env=environment,
                                          preexec_fn=functools.partial(_ends_with, os.getpid()))
        except OSError as error:
            click.echo(f"mwbench testhosts: cannot run {command[0]}: {error.strerror}",
                       err=True)
            return 127
        return self.child.wait()
