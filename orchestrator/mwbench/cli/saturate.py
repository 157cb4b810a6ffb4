"""`mwbench saturate SPEC --experiment NAME --bound-us B [--percentile P]`: the highest
offered rate each configuration sustains under a bound at a percentile (saturation.py,
saturation_run.py, response_bound.py)."""

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
from ..response_bound import DEFAULT_PERCENTILE, PERCENTILES, Bound
from ..saturation_run import SaturateError, Saturation, saturate, searched
from ..spec import SpecError
from ..store import StoreError
from .console import make_console
from .numbers import BOUND_US, CALL_RATE, PROBE_SECONDS
from .options import db_option, seed_option
from .refusals import refused_or_begun


@click.command("saturate")
@click.argument("spec", type=click.Path(path_type=Path))
@click.option("--experiment", required=True, metavar="NAME",
              help="The experiment of SPEC whose configurations to search.")
@click.option("--bound-us", type=BOUND_US, default=None, metavar="MICROSECONDS",
              help="Required: the bound the response time at --percentile must stay "
                   "under, in µs.")
@click.option("--percentile", type=click.Choice([f"{p:g}" for p in PERCENTILES]),
              default=None, help="The percentile of the response time the bound is judged "
                                 f"at (default {DEFAULT_PERCENTILE:g}).")
@click.option("--p99-bound-us", type=BOUND_US, default=None, metavar="MICROSECONDS",
              hidden=True, help="The old spelling of --bound-us B --percentile 99.")
@click.option("--low", type=CALL_RATE, default=1000.0, show_default=True, metavar="RATE",
              help="The first rate offered, in calls per second.")
@click.option("--high", type=CALL_RATE, default=None, metavar="RATE",
              help="The highest rate offered, in calls per second (default: no bound but "
                   "mwbench's own).")
@click.option("--probe-seconds", type=PROBE_SECONDS, default=2.0,
              show_default=True, metavar="SECONDS",
              help="The least time a probe's launch sends for: its samples are the "
                   "experiment's, or the rate times this if more.")
@db_option("SQLite database to add the search's run to (default results/mwbench.db).")
@click.option("--inventory", type=click.Path(path_type=Path), default=None,
              envvar="MWBENCH_INVENTORY", show_envvar=True,
              help="Host inventory (YAML) naming the hosts of the factor `hosts`; overrides "
                   "the spec's `inventory:`.")
@seed_option()
def command(spec: Path, experiment: str, bound_us: float | None, percentile: str | None,
            p99_bound_us: float | None, low: float, high: float | None, probe_seconds: float,
            db: Path | None, inventory: Path | None, seed: int | None) -> None:
    """Search, for each configuration of an experiment of SPEC, the highest rate offered
    in an open loop whose response time at --percentile (p99 unless given: the median
    of its launches' figure) stays under --bound-us and whose achieved rate is within
    5% of the offered one, and print that maximum sustainable rate per configuration.
    Where the machine itself stalls now and then (a virtual machine's host taking its
    vCPUs away), the p99 of every rate is those stalls: judge at p90 or p50 instead.
    --p99-bound-us B, the older spelling, is --bound-us B --percentile 99.

    A rate is not sustained either when a launch lost calls (never answered within the
    experiment's timeout). The rate doubles from --low until a probe fails (or --high is
    reached), then is bisected to within 5%. Each probe is real: the experiment's
    launches, samples (or more: each launch sends for at least --probe-seconds) and
    warm-up at that rate, every configuration's probes of a round interleaved as `mwbench
    run` interleaves launches. Every probe is stored as a cell of one run (suite
    SUITE.saturate), so `mwbench report` shows them; each search's outcome is stored
    with the run. The load is the kind the experiment's `load` levels name (constant or
    poisson), else poisson.

    Exits 0 when every search ended, 2 for a bad spec, bound, percentile or rate (or no
    bound, or two), or an experiment no driver runs in an open loop (nothing runs), and
    128 + the signal's number when a stop signal ended it (finished searches are
    stored).

    \b
    Examples:
      mwbench saturate my-spec.yaml --experiment rpc --bound-us 200
      mwbench saturate my-spec.yaml --experiment rpc --bound-us 500 --percentile 90
      mwbench saturate my-spec.yaml --experiment rpc --bound-us 1000 --low 500 \\
          --high 64000 --db results/saturation.db
    """
    bound = _bound(bound_us, percentile, p99_bound_us)
    if high is not None and high <= low:
        raise click.UsageError(f"--high {high:g} is not above --low {low:g}")
    console = make_console()
    with refused_or_begun("saturate", (SpecError, InventoryError, MatrixError, StoreError,
                                       LeftoverError, SaturateError), "any probe ran"):
        done = saturate(spec, experiment, bound, low, high, db or paths.default_db(),
                        console, inventory, seed, probe_seconds)
    _print(console, done, bound)
    if done.interrupted:
        console.print(f"[yellow]interrupted[/] by {done.interrupted}: the probes that ended "
                      f"are stored in run {done.run_id}")
        sys.exit(done.interrupted.exit_status)


def _bound(bound_us: float | None, percentile: str | None, p99_bound_us: float | None
           ) -> Bound:
    """The one bound the options give; a usage error for none, or for two spellings."""
    if p99_bound_us is not None:
        if bound_us is not None:
            raise click.UsageError("give --bound-us or --p99-bound-us, not both "
                                   "(--p99-bound-us B is --bound-us B --percentile 99)")
        if percentile is not None and float(percentile) != DEFAULT_PERCENTILE:
            raise click.UsageError(f"--p99-bound-us is a bound at p99, not at --percentile "
                                   f"{percentile}: give --bound-us with --percentile")
        return Bound(p99_bound_us)
    if bound_us is None:
        raise click.UsageError("give the bound: --bound-us MICROSECONDS (at --percentile, "
                               f"default {DEFAULT_PERCENTILE:g})")
    return Bound(bound_us, DEFAULT_PERCENTILE if percentile is None else float(percentile))


def _print(console, done: Saturation, bound: Bound) -> None:
    table = Table(title=f"Maximum sustainable {done.kind} rate: {bound.name} under "
                        f"{bound.us:g} µs and at least 95% of the rate offered achieved "
                        f"(run {done.run_id})")
    there = f"{bound.name} there µs"
    for heading in ("driver", "configuration", "max rate/s", there, "probes",
                    "stopped because"):
        table.add_column(heading, justify="right" if heading in
                         {"max rate/s", there, "probes"} else "left")
    for cell in done.configurations:
        outcome = done.outcomes.get(configuration_key(searched(cell)))
        if outcome is None:
            continue
        at = [p.figure_us for p in outcome.probes if p.rate_per_s == outcome.max_rate_per_s]
        table.add_row(cell["driver"], escape(" ".join(other_factors(
            cell.levels, ("experiment", "driver", "load")))),
            "-" if outcome.max_rate_per_s is None else f"{outcome.max_rate_per_s:,.0f}",
            f"{at[0]:,.1f}" if at and at[0] is not None else "-",
            str(len(outcome.probes)), escape(outcome.reason))
    console.print(table)
