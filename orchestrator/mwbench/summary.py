"""The table printed at the end of a run: one row per cell, medians first."""

from rich.console import Console
from rich.table import Table

from .baseline import median_ratios
from .comparison.runs import extra_factors
from .crowding import CROWDED
from .matrix import Matrix
from .store import CellRecord


def print_summary(console: Console, records: list[CellRecord], matrix: Matrix) -> None:
    table = Table(title="Results (µs per call; throughput in calls/s; ×raw: median over the "
                        "raw-socket median, same reach (loopback IP, local IPC) and placement)")
    numeric = {"bytes", "rep", "p50", "p99", "max", "calls/s", "×raw"}
    for heading in ("experiment", "driver", "mode", "transport", "op", "bytes", "placement",
                    "other factors", "rep", "p50", "p99", "max", "calls/s", "×raw", "status"):
        table.add_column(heading, justify="right" if heading in numeric else "left")
    ratios = median_ratios([(r.factors, (r.stats or {}).get("p50_us")) for r in records])
    for record, ratio in zip(records, ratios, strict=True):
        f, s = record.factors, record.stats or {}
        table.add_row(
            f["experiment"], f["driver"], f["mode"], f["transport"], f["operation"],
            str(f["payload_bytes"]), _placement(record), " ".join(extra_factors(f)),
            str(f["repetition"]),
            _number(s.get("p50_us")), _number(s.get("p99_us")), _number(s.get("max_us")),
            _number(s.get("throughput_per_s"), digits=0), _number(ratio),
            "ok" if record.status == "ok" else "[red]failed[/]",
        )
    console.print(table)
    if matrix.skipped:
        console.print(f"{len(matrix.skipped)} combinations skipped:")
        for skipped in matrix.skipped:
            console.print(f"  {skipped.experiment} {skipped.driver} {skipped.what}: "
                          f"{skipped.reason}")
    crowded = 0
    for record in records:
        for note in record.notes:
            if note.startswith(CROWDED):
                crowded += 1  # one line for all of them: a thread sweep crowds most cells
                continue
            console.print(f"[yellow]note[/] {record.factors['driver']} "
                          f"{record.factors['transport']}: {note}")
    if crowded:
        console.print(f"[yellow]note[/] {crowded} cells had more busy threads than the "
                      f"machine's CPUs (client + server + background threads); each cell's "
                      "notes give its count")


def _placement(record: CellRecord) -> str:
    placement = record.factors["placement"]
    if record.factors["idle_hold"]:
        placement += " +hold" if record.idle_hold_held else " (hold failed)"
    return placement


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"
