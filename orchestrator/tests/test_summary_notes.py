"""The end-of-run summary says each note once, with every configuration it was made for."""

from rich.console import Console

from mwbench.matrix import Matrix
from mwbench.store import CellRecord
from mwbench.summary import _print_skips_and_notes

TIMED = "samples the application timed itself"


def record(driver: str, transport: str, notes: list[str]) -> CellRecord:
    return CellRecord(factors={"driver": driver, "transport": transport}, status="ok",
                      notes=notes)


def test_a_note_made_for_many_cells_is_one_line_naming_them():
    console = Console(record=True, width=200)
    records = [record("deploy", "inproc", [TIMED]) for _ in range(5)] + [
        record("deploy", "tcp", [TIMED]), record("omniorb", "tcp", ["only 10 of 20 samples"])]
    _print_skips_and_notes(console, records, Matrix())
    lines = console.export_text().splitlines()
    assert lines == [f"note deploy inproc, deploy tcp: {TIMED}",
                     "note omniorb tcp: only 10 of 20 samples"]
