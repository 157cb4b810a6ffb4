"""Running one cell: its processes (cell_processes.py), then the verdict (judge.py).

Around them, what the cell holds for its whole duration: a scratch directory,
the idle hold, and a daemon the driver declares (daemon.py: iceoryx's RouDi),
which runs from before the server starts until after both ends have stopped,
one per cell. Every failure becomes a `failed` record with the reason and the
tail of the processes' error output, never an exception that would stop the
run; a stop signal (interruption.py) propagates, after the children have been
stopped.
"""

import time
import traceback

from .background import BackgroundLoad
from .cell_processes import run_collocated, run_remote
from .daemon import Daemon
from .drivers import DriverInfo
from .judge import judge
from .ledger import scratch_directory
from .matrix import Cell
from .placement import IdleHold, assign_cpus
from .processes import ChildFailure
from .resultfile import ResultFileError
from .store import CellRecord


def run_cell(cell: Cell, driver: DriverInfo) -> CellRecord:
    cpus = assign_cpus(cell["placement"])
    remote = cell["mode"] == "remote"
    record = CellRecord(
        factors=cell.factors(),
        status="failed",
        client_cpu=cpus.client_cpu,
        server_cpu=cpus.server_cpu if remote else None,
        role=cell.role,
        notes=list(cell.notes),
    )
    started = time.monotonic()
    with scratch_directory() as scratch, IdleHold(cell["idle_hold"]) as hold:
        record.idle_hold_held = hold.held
        if hold.problem:
            record.notes.append(hold.problem)
        load = BackgroundLoad(cell["background"], cell.timeout_s, scratch)
        daemon = Daemon(driver.daemon, scratch)
        try:
            daemon.start()
            if remote:
                measured, server_header = run_remote(cell, driver, scratch, cpus, load)
            else:
                measured = run_collocated(cell, driver, scratch, cpus.client_cpu, load)
                server_header = None
            daemon.check("during the cell, so the drivers lost it")
            judge(record, cell, measured, server_header)
        except (ChildFailure, ResultFileError) as failure:
            record.error = str(failure)
            if cell.memory_limit_mb:
                record.error += (f"\n(the driver processes were capped at {cell.memory_limit_mb}"
                                 " MiB of address space: memory_limit_mb in the spec)")
        except Exception:  # noqa: BLE001 - a bug of mwbench's fails one cell, never the run
            record.error = ("mwbench failed while running this cell (a bug in mwbench; "
                            "please report it with this text):\n"
                            + traceback.format_exc(limit=-6))
        finally:
            load.stop()
            daemon.stop()
        record.load_generator = load.record
        record.daemon = daemon.record
    record.duration_s = time.monotonic() - started
    return record
