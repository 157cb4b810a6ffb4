"""`mwbench compare BASE NEW`: is NEW slower than BASE, configuration by configuration?

Its exit status is the answer, so that it can gate CI: 1 when any
configuration regressed, 0 otherwise, 2 when the question cannot be asked.
"""

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..comparison import (
    DEFAULT_SEED,
    NOT_RESOLVABLE,
    Comparison,
    NoCommonCells,
    Row,
    Settings,
    cautions,
    compare,
)
from ..comparison.records import records
from ..comparison.runs import describe_factors, load_run
from ..factors import HEADINGS, column_text, other_factors
from .console import make_console
from .numbers import CONFIDENCE, RUN_ID, SEED, THRESHOLD_PCT
from .options import db_option
from .stored import read_store

EXIT_REGRESSION = 1
_STYLE = {"regression": "red", "improvement": "green", NOT_RESOLVABLE: "yellow"}


@click.command("compare")
@click.argument("base", type=RUN_ID)
@click.argument("new", type=RUN_ID)
@db_option("SQLite database holding both runs (default results/mwbench.db).")
@click.option("--threshold", type=THRESHOLD_PCT, default=5.0, show_default=True,
              metavar="PCT", help="Smallest slowdown of the median, in percent, that counts.")
@click.option("--confidence", type=CONFIDENCE, default=0.95, show_default=True,
              help="Confidence level of the interval.")
@click.option("--seed", type=SEED, default=DEFAULT_SEED, show_default=True,
              help="Seed of the bootstrap; the same seed gives the same intervals.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record per configuration.")
def command(base: int, new: int, db: Path | None, threshold: float, confidence: float,
            seed: int, as_json: bool) -> None:
    """Compare run NEW against run BASE, matching cells on every factor but the launch.

    For each configuration: both p50s and p99s (µs per call, the median over
    launches of each launch's figure), the ratio new/base of the p50s, its
    confidence interval by a hierarchical bootstrap over launches (each
    side's launches resampled, then the samples within each), and the
    smallest change the two runs could have detected (80% power at this
    confidence). A launch is a new set of processes: a process pair settles
    near one of a few levels, so launches, not samples, are what the test
    counts.

    A configuration has regressed when the ratio exceeds 1 + threshold and
    the interval's lower bound exceeds 1; an improvement is the mirror image;
    "no change" when the whole interval lies within the threshold (a change
    may be real and too small to matter). Otherwise it is "not resolvable",
    with the launches per side that would resolve it: the gate calls neither
    a regression nor "no change" that the runs cannot resolve. Cells in only
    one run, and failed cells, are listed; a configuration that worked in
    BASE and fails in NEW fails the gate.

    Exits 0 when nothing regressed, 1 when something did, 2 for a missing
    database, an unknown run, or runs with no cell in common.

    \b
    Examples:
      mwbench compare 3 4                         # run 4 against run 3, results/mwbench.db
      mwbench compare 3 4 --threshold 10          # only slowdowns beyond 10% count
      mwbench compare 1 2 --db ci.db --json > comparison.json
    """
    settings = Settings(threshold=threshold / 100.0, confidence=confidence, seed=seed)
    comparison = read_store(
        "compare", db,
        lambda store: compare(load_run(store, base), load_run(store, new), settings),
        errors=(NoCommonCells,))
    if as_json:
        click.echo(json.dumps(records(comparison), indent=2))
    else:
        _print(make_console(), comparison)
    if comparison.regressions or comparison.broken:
        sys.exit(EXIT_REGRESSION)


def _print(console: Console, comparison: Comparison) -> None:
    settings = comparison.settings
    base, new = comparison.base.run_id, comparison.new.run_id
    table = Table(title=f"run {base} (BASE) → run {new} (NEW): µs per call, median over "
                        f"launches; ratio new/base of p50, {_percent(settings.confidence)} "
                        "interval by a hierarchical bootstrap over launches "
                        f"(seed {settings.seed}); "
                        "detectable: the smallest change these runs could have seen")
    compared = comparison.compared
    show_other = any(other_factors(row.factors) for row in compared)
    numeric = {"bytes", "launches", "base p50", "new p50", "base p99", "new p99", "ratio",
               "detectable"}
    headings = [*HEADINGS, *(["other"] if show_other else []), "launches", "base p50", "new p50",
                "base p99", "new p99", "ratio", "interval", "detectable", "verdict"]
    for heading in headings:
        table.add_column(heading, justify="right" if heading in numeric else "left")
    for row in compared:
        f = row.factors
        table.add_row(
            *(escape(column_text(f, heading)) for heading in HEADINGS),
            *([escape(" ".join(other_factors(f)))] if show_other else []),
            f"{row.base.launches}/{row.new.launches}",
            f"{row.base.p50_us:.2f}", f"{row.new.p50_us:.2f}",
            f"{row.base.p99_us:.2f}", f"{row.new.p99_us:.2f}", f"{row.ratio:.3f}",
            "-" if row.ci_low is None else f"{row.ci_low:.3f}–{row.ci_high:.3f}",
            "-" if row.detectable is None else f"{row.detectable:.1%}", _verdict(row))
    console.print(table)
    _print_lists(console, comparison)
    for caution in cautions(comparison):
        console.print(f"[yellow]warning[/]: {escape(caution)}")
    console.print(_verdict_line(comparison))


def _verdict(row: Row) -> str:
    text = row.verdict
    if row.needs is not None:
        text += f": needs ≥ {row.needs} launches"
    style = _STYLE.get(row.verdict)
    return f"[{style}]{text}[/]" if style else text


def _print_lists(console: Console, comparison: Comparison) -> None:
    for verdict, run in (("only in base", comparison.base), ("only in new", comparison.new)):
        rows = [row for row in comparison.rows if row.verdict == verdict]
        if rows:
            console.print(f"{len(rows)} configuration(s) only in run {run.run_id} "
                          f"({verdict.removeprefix('only in ').upper()}), not compared:")
            for row in rows:
                console.print(f"  {escape(describe_factors(row.factors))}")
    failures = [(role, run, row, side) for row in comparison.rows
                for role, run, side in (("BASE", comparison.base, row.base),
                                        ("NEW", comparison.new, row.new))
                if side and side.failed]
    if failures:
        console.print("failed cells (left out of the comparison):")
    for role, run, row, side in failures:
        for failed in side.failed:
            reason = failed.error.splitlines()[0] if failed.error else "no reason stored"
            console.print(f"  [red]failed[/] {role} run {run.run_id} launch "
                          f"{failed.launch}: {escape(describe_factors(row.factors))}: "
                          f"{escape(reason)}")
    not_compared = [row for row in comparison.rows if row.verdict.startswith("failed in")]
    if not_compared:
        console.print(f"{len(not_compared)} configuration(s) in both runs not compared: "
                      "every launch failed in one of them "
                      f"({len(comparison.broken)} worked in BASE and fail in NEW)")


def _verdict_line(comparison: Comparison) -> str:
    settings = comparison.settings
    compared = comparison.compared
    how = (f"threshold {_percent(settings.threshold)}, {_percent(settings.confidence)} "
           f"confidence, run {comparison.base.run_id} → run {comparison.new.run_id}")
    regressions, broken = comparison.regressions, comparison.broken
    if broken:
        return (f"[red]REGRESSION[/]: {len(broken)} configuration(s) that worked in BASE fail "
                f"in NEW; {len(regressions)} of {len(compared)} slower beyond the threshold "
                f"({how})")
    if regressions:
        return (f"[red]REGRESSION[/]: {len(regressions)} of {len(compared)} configuration(s) "
                f"slower beyond the threshold ({how})")
    improved = sum(1 for row in compared if row.verdict == "improvement")
    extra = f"; {improved} improved" if improved else ""
    unresolved = len(comparison.unresolved)
    if unresolved:
        extra += (f"; [yellow]{unresolved} not resolvable[/] by these runs (more launches "
                  "would resolve them: see the verdicts)")
    return f"no regression in {len(compared)} configuration(s) ({how}{extra})"


def _percent(fraction: float) -> str:
    """95%, 99.9%: a confidence of 0.999 is not 100%."""
    return f"{fraction * 100:g}%"
