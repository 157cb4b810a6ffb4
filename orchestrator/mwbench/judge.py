"""Judging what a cell's processes wrote: a measurement to keep, or a failure with a reason.

The measuring process's result file is checked against the cell that asked
for it: the factors its header repeats (factors.py, `echoed`) must be the
cell's, a fan-out's every subscriber must have received every event
published (docs/driver-contract-fanout.md), an open loop's `load` figures
must be of the load asked for (open_load.py). What is odd but not wrong
(fewer samples than asked, a thread moving between CPUs) becomes a note. A
result that is wrong raises ResultFileError; the caller stores the cell as
failed. The named series of the result (the parts the driver timed inside
each sample, contract section 4) go to the record beside the samples; the
statistics are of the samples alone.
"""

from .factors import FACTORS, driver_options
from .matrix import Cell
from .open_load import judged
from .resultfile import ResultFile, ResultFileError
from .stats import summarize
from .store import CellRecord


def judge(record: CellRecord, cell: Cell, measured: ResultFile, server_header: dict | None,
          own_options: dict | None = None):
    """Fill `record` from a result that passes, or raise ResultFileError. `own_options`:
    the driver options the measuring process had besides the cell's (a node map, a
    partition of its own)."""
    header = measured.header
    record.measurer_header = header
    record.server_header = server_header
    record.batch_size = measured.batch_size
    record.samples_ns = measured.samples_ns
    record.named_series = measured.named_series
    check_echoes(cell, header, own_options)
    if measured.samples_ns.size == 0:
        raise ResultFileError("the driver wrote no samples")
    wanted = cell.samples_asked
    if measured.samples_ns.size < wanted:
        record.notes.append(f"only {measured.samples_ns.size} of {wanted} samples measured")
    if (cell["threads"] or 1) > 1 and "series" not in header:
        record.notes.append("the driver wrote no per-thread series: the threads' samples "
                            "cannot be told apart")
    calls = int(measured.samples_ns.size) * measured.batch_size
    record.stats = summarize(measured.per_call_ns(), calls,
                             int(header.get("measured_wall_ns", 0))).as_dict()
    if cell["subscribers"] is not None:
        _check_deliveries(header, server_header if cell["mode"] == "remote" else header,
                          cell["subscribers"])
    record.notes += judged(cell["load"], header)
    if header.get("timed_by") == "driver":
        record.notes.append("samples the application timed itself (timed_by: driver): its "
                            "throughput is the rate it produced them at, not calls per second")
    if header.get("injected_delay_ns"):
        record.notes.append(f"slowed on purpose by {header['injected_delay_ns']} ns per call "
                            "(MWBENCH_INJECT_DELAY_NS)")
    process = header.get("process") or {}
    # An unpinned cell moves by design (the report says once that cells ran unpinned); a
    # pinned one that moved was not where its placement says.
    if process.get("cpu_requested") is not None \
            and process.get("cpu_first") != process.get("cpu_last"):
        record.notes.append(f"the measuring thread was pinned to CPU {process['cpu_requested']} "
                            f"but moved from CPU {process.get('cpu_first')} to "
                            f"{process.get('cpu_last')} during the loop")
    record.status = "ok"


def check_echoes(cell: Cell, header: dict, own_options: dict | None = None) -> None:
    """The factors a result header repeats are the cell's (an unset level as the driver
    assumes it): a driver that measured something else must not pass for this cell."""
    for factor in FACTORS:
        if factor.echoed is None or factor.echoed not in header:
            continue
        wanted = factor.level_or_unset(cell[factor.name])
        if factor.name == "options":  # every --option the driver was given, as text
            wanted = {key: str(value) for key, value in
                      {**driver_options(cell.levels), **(own_options or {})}.items()}
        if header[factor.echoed] != wanted:
            raise ResultFileError(f"the result header says {factor.echoed} "
                                  f"{header[factor.echoed]!r}; the cell asked for {wanted!r}")


def _check_deliveries(publisher: dict, subscribers: dict | None, expected: int) -> None:
    """Every subscriber received exactly the events published
    (docs/driver-contract-fanout.md)."""
    fanout = publisher.get("fanout")
    if fanout is None:
        raise ResultFileError("the publisher's result has no fanout counts "
                              "(docs/driver-contract-fanout.md)")
    if subscribers is None or "fanout" not in subscribers:
        raise ResultFileError("a subscriber process wrote no result with fanout counts, so "
                              "the events each subscriber received are unknown")
    published = fanout.get("events_published")
    received = subscribers["fanout"].get("events_received", [])
    if len(received) != expected:
        raise ResultFileError(f"{len(received)} subscribers counted their events; the cell "
                              f"has {expected}")
    wrong = [f"subscriber {number}: {count}" for number, count in enumerate(received)
             if count != published]
    if wrong:
        shown = ", ".join(wrong[:8]) + (", ..." if len(wrong) > 8 else "")
        raise ResultFileError(f"{len(wrong)} of {expected} subscribers did not receive every "
                              f"one of the {published} events published ({shown})")
