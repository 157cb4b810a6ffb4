"""`mwbench interop`: the IIOP interoperability matrix of the ORBs built here."""

import sys
from pathlib import Path

import click

from .. import paths
from ..interop.orbs import KINDS, ORB_NAMES
from ..interop.pairs import Settings
from ..interop.session import calls_of, run_interop
from ..leftovers import LeftoverError
from ..store import StoreError
from .console import make_console
from .numbers import PAYLOAD_BYTES, SAMPLES, run_setting
from .options import Choice, db_option
from .refusals import refused_or_begun

CALLS = ("roundtrip", "octets_inout", "records")
DEFAULT_CALLS = CALLS[:2]  # records: on request, the strings that exercise the code sets
SIZES = (0, 1024, 65536)
EXIT_FAILED_PAIRS = 1


@click.command("interop")
@click.option("--orb", "orbs", type=Choice(ORB_NAMES), multiple=True,
              help=f"An ORB of the matrix (repeat for several; default all: "
                   f"{', '.join(ORB_NAMES)}). One whose driver is not built here has its "
                   "pairs skipped, with the reason.")
@click.option("--kind", "kinds", type=Choice(KINDS), multiple=True,
              help="object (plain objects) or component (a component server, reached with "
                   "provide_facet); repeat for both (the default).")
@click.option("--call", "operations", type=Choice(CALLS), multiple=True,
              help="roundtrip (the timestamp echo), octets_inout (a sequence<octet> each "
                   "way) or records (structs with a string: the code sets); repeat for "
                   "several. Default: roundtrip and octets_inout.")
@click.option("--size", "sizes", type=PAYLOAD_BYTES, multiple=True,
              help="Bytes of octets_inout and records (repeat; default 0, 1024 and 65536).")
@click.option("--samples", type=SAMPLES, default=200, show_default=True,
              help="Samples of each pair's client.")
@click.option("--warmup", type=run_setting("warmup"), default=50, show_default=True,
              help="Calls each pair's client makes before it keeps samples.")
@db_option("SQLite database to add the run to (default results/mwbench.db).")
def command(orbs: tuple[str, ...], kinds: tuple[str, ...], operations: tuple[str, ...],
            sizes: tuple[int, ...], samples: int, warmup: int, db: Path | None) -> None:
    """Call every ORB's servers from every ORB's clients, over IIOP.

    For each kind, call and (client ORB, server ORB) pair, the server
    driver of one ORB and the client driver of the other run as a cell of
    `mwbench run` would (one launch, few samples, payloads checked): the
    pair passes with its median, or fails with the kind of failure (GIOP
    version, code set, service context, marshal, no such operation, ...)
    and the client's error line. The matrix is stored as a run;
    `mwbench report` draws it (section "IIOP interoperability").

    Exits 0 when every pair that ran passed, 1 when one failed (an interop
    finding, stored with its reason), 2 for bad input, and 128 + the signal
    when stopped.

    \b
    Examples:
      mwbench interop
      mwbench interop --orb omniorb --orb jacorb --kind object --call roundtrip
      mwbench interop --call octets_inout --size 65536 --samples 500
    """
    orbs = tuple(dict.fromkeys(orbs)) or ORB_NAMES
    calls = calls_of(list(dict.fromkeys(operations)) or list(DEFAULT_CALLS),
                     list(dict.fromkeys(sizes)) or list(SIZES))
    console = make_console()
    with refused_or_begun("interop", (StoreError, LeftoverError), "any pair ran"):
        outcome = run_interop(db or paths.default_db(), list(orbs),
                              list(dict.fromkeys(kinds)) or list(KINDS), calls,
                              Settings(samples=samples, warmup=warmup), console)
    passed = sum(1 for result in outcome.results if result.status == "pass")
    skipped = sum(1 for result in outcome.results if result.status == "skipped")
    console.print(f"run {outcome.run_id}: {passed} pairs passed, {len(outcome.failed)} failed, "
                  f"{skipped} skipped")
    if outcome.interrupted:
        console.print(f"[yellow]interrupted[/] by {outcome.interrupted}")
        sys.exit(outcome.interrupted.exit_status)
    if outcome.failed:
        sys.exit(EXIT_FAILED_PAIRS)
