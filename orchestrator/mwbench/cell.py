"""Running one cell: start the driver processes, collect the result, judge it.

Remote cells run a server and a client process; collocated cells run one
process. A background load (background.py), when the cell asks for one, runs
from after the server's endpoint is published until the client has ended. A
daemon the driver declares (daemon.py: iceoryx's RouDi) runs from before the
server starts until after both ends have stopped, one per cell.
Every failure becomes a `failed` record with the reason and the tail of the
processes' error output, never an exception that would stop the run; only
Ctrl-C propagates, after the children have been stopped.
"""

import tempfile
import time
from pathlib import Path

from .background import BackgroundLoad
from .daemon import Daemon
from .drivers import DriverInfo
from .matrix import Cell
from .placement import IdleHold, assign_cpus
from .processes import Child, ChildFailure
from .resultfile import ResultFile, ResultFileError, read_result_file
from .stats import summarize
from .store import CellRecord

SERVER_START_TIMEOUT_S = 15.0
CLIENT_CONNECT_TIMEOUT_S = 10.0


def run_cell(cell: Cell, driver: DriverInfo) -> CellRecord:
    cpus = assign_cpus(cell.placement)
    record = CellRecord(
        factors=cell.factors(),
        status="failed",
        client_cpu=cpus.client_cpu,
        server_cpu=cpus.server_cpu if cell.mode == "remote" else None,
        role=cell.role,
        notes=list(cell.notes),
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mwbench-cell-") as scratch, \
            IdleHold(cell.idle_hold) as hold:
        record.idle_hold_held = hold.held
        if hold.problem:
            record.notes.append(hold.problem)
        load = BackgroundLoad(cell.background, cell.timeout_s, Path(scratch))
        daemon = Daemon(driver.daemon, Path(scratch))
        try:
            daemon.start()
            if cell.mode == "collocated":
                measured = _run_collocated(cell, driver, Path(scratch), cpus.client_cpu, load)
                server_header = None
            else:
                measured, server_header = _run_remote(cell, driver, Path(scratch), cpus, load)
            daemon.check("during the cell, so the drivers lost it")
            _judge(record, cell, measured, server_header)
        except (ChildFailure, ResultFileError) as failure:
            record.error = str(failure)
            if cell.memory_limit_mb:
                record.error += (f"\n(the driver processes were capped at {cell.memory_limit_mb}"
                                 " MiB of address space: memory_limit_mb in the spec)")
        finally:
            load.stop()
            daemon.stop()
        record.load_generator = load.record
        record.daemon = daemon.record
    record.duration_s = time.monotonic() - started
    return record


def _argv(cell: Cell, driver: DriverInfo, role: str, scratch: Path, cpu: int | None) -> list[str]:
    argv = [
        str(driver.program),
        "--role", role,
        "--operation", cell.operation,
        "--transport", cell.transport,
        "--payload-bytes", str(cell.payload_bytes),
        "--samples", str(cell.samples),
        "--warmup", str(cell.warmup),
        "--batch", str(cell.batch),
        "--endpoint-file", str(scratch / "endpoint"),
        "--output", str(scratch / f"{role}.result"),
        "--timeout", f"{CLIENT_CONNECT_TIMEOUT_S:g}",
    ]
    if cpu is not None:
        argv += ["--cpu", str(cpu)]
    if cell.priority:
        argv += ["--priority", str(cell.priority)]
    if cell.threads is not None:
        argv += ["--threads", str(cell.threads)]
    if cell.servants is not None:
        argv += ["--servants", str(cell.servants)]
    if cell.memory_limit_mb is not None:
        argv += ["--memory-limit-mb", str(cell.memory_limit_mb)]
    for key, value in cell.options:
        argv += ["--option", f"{key}={value}"]
    return argv


def _run_collocated(cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                    load: BackgroundLoad) -> ResultFile:
    load.start()
    child = Child("collocated", _argv(cell, driver, "collocated", scratch, cpu), scratch)
    try:
        _expect_success(child, child.wait(cell.timeout_s))
        load.check("during the measurement")
        load.stop()
        return read_result_file(scratch / "collocated.result")
    finally:
        child.kill()


def _run_remote(cell: Cell, driver: DriverInfo, scratch: Path, cpus,
                load: BackgroundLoad) -> tuple[ResultFile, dict]:
    server = Child("server", _argv(cell, driver, "server", scratch, cpus.server_cpu), scratch)
    client = None
    try:
        _with_tail(server, lambda: server.wait_for_file(scratch / "endpoint",
                                                         SERVER_START_TIMEOUT_S))
        load.start()
        client = Child("client", _argv(cell, driver, "client", scratch, cpus.client_cpu), scratch)
        try:
            status = client.wait(cell.timeout_s)
        except ChildFailure as failure:
            raise ChildFailure(_tails(f"{failure} ({_state(server)})", client, server)) from None
        if status != 0:
            raise ChildFailure(_tails(f"{client.describe_exit()} ({_state(server)})",
                                      client, server))
        load.check("during the measurement")
        load.stop()
        measured = read_result_file(scratch / "client.result")
        server.stop()
        server_header = _server_header(server, scratch / "server.result")
        return measured, server_header
    finally:
        if client is not None:
            client.kill()
        server.stop()


def _server_header(server: Child, path: Path) -> dict | None:
    """The server's own result (its CPU and resource use); its absence is not fatal."""
    if server.process.returncode != 0:
        return None
    try:
        return read_result_file(path).header
    except ResultFileError:
        return None


def _state(server: Child) -> str:
    """What the server was doing when the client failed: the likely culprit."""
    return server.describe_exit() if server.exited() else "server still running"


def _expect_success(child: Child, status: int) -> None:
    if status != 0:
        raise ChildFailure(_tails(child.describe_exit(), child))


def _with_tail(child: Child, action) -> None:
    try:
        action()
    except ChildFailure as failure:
        raise ChildFailure(_tails(str(failure), child)) from None


def _tails(message: str, *children: Child | None) -> str:
    parts = [message]
    for child in children:
        if child is not None and (tail := child.stderr_tail()):
            parts.append(f"--- {child.role} stderr (last lines) ---\n{tail}")
    return "\n".join(parts)


def _judge(record: CellRecord, cell: Cell, measured: ResultFile, server_header: dict | None):
    header = measured.header
    record.measurer_header = header
    record.server_header = server_header
    record.batch_size = measured.batch_size
    record.samples_ns = measured.samples_ns
    if measured.samples_ns.size == 0:
        raise ResultFileError("the driver wrote no samples")
    wanted = cell.samples * (cell.threads or 1)  # `--samples` is per client thread
    if measured.samples_ns.size < wanted:
        record.notes.append(f"only {measured.samples_ns.size} of {wanted} samples measured")
    if (cell.threads or 1) > 1 and "series" not in header:
        record.notes.append("the driver wrote no per-thread series: the threads' samples "
                            "cannot be told apart")
    calls = int(measured.samples_ns.size) * measured.batch_size
    record.stats = summarize(measured.per_call_ns(), calls,
                             int(header.get("measured_wall_ns", 0))).as_dict()
    if header.get("injected_delay_ns"):
        record.notes.append(f"slowed on purpose by {header['injected_delay_ns']} ns per call "
                            "(MWBENCH_INJECT_DELAY_NS)")
    process = header.get("process", {})
    if cell.placement == "unpinned" and process.get("cpu_first") != process.get("cpu_last"):
        record.notes.append("the measuring thread moved between CPUs during the loop")
    record.status = "ok"
