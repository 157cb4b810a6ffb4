"""The table printed at the end of a run: one row per configuration, medians first.

Each figure is the median over the configuration's launches of each launch's
figure, with its 95% interval (launches/estimate.py); a configuration of one
launch says it has no interval. The ratio to the raw socket is taken launch
by launch (baseline.py), and a ratio whose interval holds 1 is marked as
indistinguishable from the raw socket instead of being read as faster or
slower. Open-loop configurations (the factor `load`) also show the rate
offered and the rate achieved (medians over launches, open_load.py): a
response time at a rate the middleware did not keep up with is a queue's.
"""

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .baseline import ratios_to_baseline
from .crowding import CROWDED
from .factors import CONFIGURATION, HEADINGS, column_text, other_factors
from .launches.estimate import ONE_LAUNCH, Estimate, configuration_key, percentile
from .matrix import Matrix
from .open_load import load_figures
from .store import CellRecord

INDISTINGUISHABLE = "≈ raw"


def print_summary(console: Console, records: list[CellRecord], matrix: Matrix) -> None:
    table = Table(title="Results (µs per call, the median over launches of each launch's "
                        "figure [95% interval]; ×raw: over the raw socket of the same reach "
                        "(loopback IP, local IPC) and placement, launch by launch)")
    groups = _by_configuration(records, matrix)
    open_loop = any(group.rates for group in groups)
    rates = ("offered/s", "achieved/s") if open_loop else ()
    numeric = {"bytes", "launches", "p50", "p99", "calls/s", "×raw", *rates}
    for heading in (*HEADINGS, "other factors", "launches", "p50", "p99", "calls/s", *rates,
                    "×raw", "status"):
        table.add_column(heading, justify="right" if heading in numeric else "left")
    ratios = ratios_to_baseline([(g.factors, g.launches) for g in groups])
    single = 0
    for group, ratio in zip(groups, ratios, strict=True):
        f = group.factors
        p50 = percentile(list(group.launches.values()), 50, key=group.key) \
            if group.launches else None
        p99 = percentile(list(group.launches.values()), 99, key=group.key) \
            if group.launches else None
        single += p50 is not None and not p50.has_interval
        table.add_row(
            *(escape(group.column(heading)) for heading in HEADINGS),
            escape(" ".join(other_factors(f))),
            f"{len(group.launches)}/{len(group.records)}", _figure(p50), _figure(p99),
            _number(group.throughput, digits=0),
            *([_number(rate, digits=0) for rate in group.rates or (None, None)]
              if open_loop else []),
            _ratio(ratio), group.status)
    console.print(table)
    if single:
        console.print(f"[yellow]note[/] {single} configuration(s) measured by one launch: "
                      f"{ONE_LAUNCH}; a process pair settles near one of a few levels, so one "
                      "launch is a draw (set launches: 5 or more)")
    _print_skips_and_notes(console, records, matrix)


class _Configuration:
    """The records of one configuration's launches, as the run made them."""

    def __init__(self, factors: dict):
        self.factors = factors
        self.key = configuration_key(factors)
        self.records: list[CellRecord] = []
        self.launches: dict[int, np.ndarray] = {}  # launch -> per-call µs, ok launches

    def add(self, record: CellRecord) -> None:
        self.records.append(record)
        if record.status == "ok" and record.samples_ns is not None and record.samples_ns.size:
            self.launches[record.factors["launch"]] = \
                record.samples_ns / float(record.batch_size or 1) / 1000.0

    def column(self, heading: str) -> str:
        """Its cell in a column of factors (factors.py); an idle hold asked for and not
        taken says so."""
        text = column_text(self.factors, heading)
        if heading == "placement" and self.factors["idle_hold"] and \
                not all(r.idle_hold_held for r in self.records if r.status == "ok"):
            text += " (hold failed)"
        return text

    @property
    def throughput(self) -> float | None:
        rates = [(r.stats or {}).get("throughput_per_s") for r in self.records]
        rates = [rate for rate in rates if rate]
        return float(np.median(rates)) if rates else None

    @property
    def rates(self) -> tuple[float, float] | None:
        """The medians over its launches of the rate offered and achieved (an open loop's;
        None for a closed loop)."""
        figures = [f for r in self.records if r.status == "ok"
                   and (f := load_figures(r.measurer_header)) is not None]
        if not figures:
            return None
        return (float(np.median([f.offered_per_s for f in figures])),
                float(np.median([f.achieved_per_s for f in figures])))

    @property
    def status(self) -> str:
        failed = sum(1 for r in self.records if r.status != "ok")
        if not failed:
            return "ok"
        return f"[red]{failed} of {len(self.records)} failed[/]"


def _by_configuration(records: list[CellRecord], matrix: Matrix) -> list[_Configuration]:
    """The records by configuration, in the spec's order (the launches ran shuffled)."""
    groups: dict[str, _Configuration] = {}
    for configuration in matrix.configurations:
        factors = {name: configuration.levels[name] for name in CONFIGURATION}
        groups[configuration_key(factors)] = _Configuration(factors)
    for record in records:
        factors = {name: record.factors.get(name) for name in CONFIGURATION}
        groups.setdefault(configuration_key(factors), _Configuration(factors)).add(record)
    return [group for group in groups.values() if group.records]


def _figure(estimate: Estimate | None) -> str:
    if estimate is None:
        return "-"
    digits = 3 if estimate.value < 1 else 2  # a collocated call takes tens of ns
    if not estimate.has_interval:
        return f"{estimate.value:,.{digits}f}"
    return (f"{estimate.value:,.{digits}f} [{estimate.low:,.{digits}f}–"
            f"{estimate.high:,.{digits}f}]")


def _ratio(estimate: Estimate | None) -> str:
    if estimate is None:
        return "-"
    text = _figure(estimate)
    return f"{text} {INDISTINGUISHABLE}" if estimate.includes(1.0) else text


def _print_skips_and_notes(console: Console, records: list[CellRecord], matrix: Matrix) -> None:
    if matrix.skipped:
        console.print(f"{len(matrix.skipped)} combinations skipped:")
        for skipped in matrix.skipped:
            console.print(f"  {skipped.experiment} {skipped.driver} {skipped.what}: "
                          f"{skipped.reason}")
    crowded = 0
    notes: dict[str, dict[str, None]] = {}  # note -> the driver and transport of its cells
    for record in records:
        for note in record.notes:
            if note.startswith(CROWDED):
                crowded += 1  # one line for all of them: a thread sweep crowds most cells
                continue
            where = f"{record.factors['driver']} {record.factors['transport']}"
            notes.setdefault(note, {})[where] = None
    # A note once, with every configuration it was made for: a timed_by note on each of a
    # driver's cells is one fact.
    for note, places in notes.items():
        console.print(f"[yellow]note[/] {escape(', '.join(places))}: {escape(note)}")
    if crowded:
        console.print(f"[yellow]note[/] {crowded} launches had more busy threads than the "
                      f"machine's CPUs (client + server + background threads); each cell's "
                      "notes give its count")


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"
