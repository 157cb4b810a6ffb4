"""`mwbench saturate SPEC --experiment NAME --p99-bound-us B`: the highest offered rate
each configuration sustains under a p99 bound (saturation.py, saturation_run.py)."""

import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from .. import paths
from ..factors import other_factors
from ..hosts.inventory import InventoryError
from ..launches.estimate import configuration_key
from ..leftovers import LeftoverError
from ..matrix import MatrixError
from ..saturation_run import SaturateError, Saturation, saturate, searched
from ..spec import SpecError
from ..store import StoreError
from .console import make_console
from .numbers import CALL_RATE, P99_BOUND_US
from .options import db_option, seed_option
from .refusals import refused_or_begun


@click.command("saturate")
@click.argument("spec", type=click.Path(path_type=Path))
@click.option("--experiment", required=True, metavar="NAME",
              help="The experiment of SPEC whose configurations to search.")
@click.option("--p99-bound-us", "bound_us", type=P99_BOUND_US, required=True,
              metavar="MICROSECONDS",
              help="The bound the p99 response time must stay under, in µs.")
@click.option("--low", type=CALL_RATE, default=1000.0, show_default=True, metavar="RATE",
              help="The first rate offered, in calls per second.")
@click.option("--high", type=CALL_RATE, default=None, metavar="RATE",
              help="The highest rate offered, in calls per second (default: no bound but "
                   "mwbench's own).")
@db_option("SQLite database to add the search's run to (default results/mwbench.db).")
@click.option("--inventory", type=click.Path(path_type=Path), default=None,
              envvar="MWBENCH_INVENTORY", show_envvar=True,
              help="Host inventory (YAML) naming the hosts of the factor `hosts`; overrides "
                   "the spec's `inventory:`.")
@seed_option()
def command(spec: Path, experiment: str, bound_us: float, low: float, high: float | None,
            db: Path | None, inventory: Path | None, seed: int | None) -> None:
    """Search, for each configuration of an experiment of SPEC, the highest rate offered
    in an open loop whose p99 response time (the median of its launches' p99) stays
    under --p99-bound-us and whose achieved rate is within 5% of the offered one, and
    print that maximum sustainable rate per configuration.

    The rate doubles from --low until a probe fails (or --high is reached), then is
    bisected to within 5%. Each probe is real: the experiment's launches, samples and
    warm-up at that rate, every configuration's probes of a round interleaved as `mwbench
    run` interleaves launches. Every probe is stored as a cell of one run (suite
    SUITE.saturate), so `mwbench report` shows them; each search's outcome is stored
    with the run. The load is the kind the experiment's `load` levels name (constant or
    poisson), else poisson.

    Exits 0 when every search ended, 2 for a bad spec, bound or rate, or an experiment no
    driver runs in an open loop (nothing runs), and 128 + the signal's number when a
    stop signal ended it (finished searches are stored).

    \b
    Examples:
      mwbench saturate my-spec.yaml --experiment rpc --p99-bound-us 200
      mwbench saturate my-spec.yaml --experiment rpc --p99-bound-us 1000 --low 500 \\
          --high 64000 --db results/saturation.db
    """
    if high is not None and high <= low:
        raise click.UsageError(f"--high {high:g} is not above --low {low:g}")
    console = make_console()
    with refused_or_begun("saturate", (SpecError, InventoryError, MatrixError, StoreError,
                                       LeftoverError, SaturateError), "any probe ran"):
        done = saturate(spec, experiment, bound_us, low, high, db or paths.default_db(),
                        console, inventory, seed)
    _print(console, done, bound_us)
    if done.interrupted:
        console.print(f"[yellow]interrupted[/] by {done.interrupted}: the probes that ended "
                      f"are stored in run {done.run_id}")
        sys.exit(done.interrupted.exit_status)


def _print(console, done: Saturation, bound_us: float) -> None:
    table = Table(title=f"Maximum sustainable {done.kind} rate: p99 under {bound_us:g} µs and "
                        f"at least 95% of the rate offered achieved (run {done.run_id})")
    for heading in ("driver", "configuration", "max rate/s", "p99 there µs", "probes",
                    "stopped because"):
        table.add_column(heading, justify="right" if heading in
                         {"max rate/s", "p99 there µs", "probes"} else "left")
    for cell in done.configurations:
        outcome = done.outcomes.get(configuration_key(searched(cell)))
        if outcome is None:
            continue
        there = [p.p99_us for p in outcome.probes if p.rate_per_s == outcome.max_rate_per_s]
        table.add_row(cell["driver"], escape(" ".join(other_factors(
            cell.levels, ("experiment", "driver", "load")))),
            "-" if outcome.max_rate_per_s is None else f"{outcome.max_rate_per_s:,.0f}",
            f"{there[0]:,.1f}" if there and there[0] is not None else "-",
            str(len(outcome.probes)), escape(outcome.reason))
    console.print(table)
