"""Running one cell: start the driver processes, collect the result, judge it.

Remote cells run a server and a client process; collocated cells run one
process. A remote fan-out cell (operation `fanout`, driver contract section 5)
runs one subscriber process, or one per subscriber, in place of the server,
and fails if any subscriber did not receive exactly the events published.
A background load (background.py), when the cell asks for one, runs from
after the server's endpoint is published until the client has ended. A
daemon the driver declares (daemon.py: iceoryx's RouDi) runs from before the
server starts until after both ends have stopped, one per cell.
Every failure becomes a `failed` record with the reason and the tail of the
processes' error output, never an exception that would stop the run; only
Ctrl-C propagates, after the children have been stopped.
"""

import time
import traceback
from pathlib import Path

from .background import BackgroundLoad
from .daemon import Daemon
from .drivers import DriverInfo
from .ledger import scratch_directory
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
    with scratch_directory() as scratch, IdleHold(cell.idle_hold) as hold:
        record.idle_hold_held = hold.held
        if hold.problem:
            record.notes.append(hold.problem)
        load = BackgroundLoad(cell.background, cell.timeout_s, scratch)
        daemon = Daemon(driver.daemon, scratch)
        try:
            daemon.start()
            if cell.mode == "collocated":
                measured = _run_collocated(cell, driver, scratch, cpus.client_cpu, load)
                server_header = None
            else:
                measured, server_header = _run_remote(cell, driver, scratch, cpus, load)
            daemon.check("during the cell, so the drivers lost it")
            _judge(record, cell, measured, server_header)
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


def _argv(cell: Cell, driver: DriverInfo, role: str, cpu: int | None,
          endpoint_files: list[Path], output: Path, fanout: list[str]) -> list[str]:
    argv = [
        str(driver.program),
        "--role", role,
        "--operation", cell.operation,
        "--transport", cell.transport,
        "--payload-bytes", str(cell.payload_bytes),
        "--samples", str(cell.samples),
        "--warmup", str(cell.warmup),
        "--batch", str(cell.batch),
    ]
    for endpoint_file in endpoint_files:
        argv += ["--endpoint-file", str(endpoint_file)]
    argv += ["--output", str(output), "--timeout", f"{CLIENT_CONNECT_TIMEOUT_S:g}"]
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
    argv += fanout
    for key, value in cell.options:
        argv += ["--option", f"{key}={value}"]
    return argv


def _subscribers(count: int) -> list[str]:
    return ["--subscribers", str(count)]


def _run_collocated(cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                    load: BackgroundLoad) -> ResultFile:
    load.start()
    fanout = _subscribers(cell.subscribers) if cell.subscribers is not None else []
    output = scratch / "collocated.result"
    child = Child("collocated",
                  _argv(cell, driver, "collocated", cpu, [], output, fanout), scratch)
    try:
        _expect_success(child, child.wait(cell.timeout_s))
        load.check("during the measurement")
        load.stop()
        return read_result_file(output, _samples_asked(cell))
    finally:
        child.kill()


class _Server:
    """One server process of a remote cell: the server, or one of a fan-out's subscriber
    processes, with its endpoint and result files."""

    def __init__(self, cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                 index: int | None):
        suffix = "" if index is None else f"-{index}"
        self.endpoint = scratch / f"endpoint{suffix}"
        self.output = scratch / f"server{suffix}.result"
        fanout = []
        if cell.subscribers is not None:
            share = cell.subscribers // cell.subscriber_process_count
            fanout = _subscribers(share) + ["--first-subscriber", str((index or 0) * share)]
        role = "server" if index is None else f"subscribers-{index}"
        self.child = Child(role, _argv(cell, driver, "server", cpu, [self.endpoint], self.output,
                                       fanout), scratch)


def _run_remote(cell: Cell, driver: DriverInfo, scratch: Path, cpus,
                load: BackgroundLoad) -> tuple[ResultFile, dict]:
    count = cell.subscriber_process_count if cell.subscribers is not None else None
    indices = [None] if count is None else list(range(count))
    servers: list[_Server] = []
    client = None
    try:
        for index in indices:
            servers.append(_Server(cell, driver, scratch, cpus.server_cpu, index))
        for server in servers:
            _with_tail(server.child, lambda s=server: s.child.wait_for_file(
                s.endpoint, SERVER_START_TIMEOUT_S))
        load.start()
        fanout = _subscribers(cell.subscribers) if cell.subscribers is not None else []
        client = Child("client", _argv(cell, driver, "client", cpus.client_cpu,
                                       [server.endpoint for server in servers],
                                       scratch / "client.result", fanout), scratch)
        children = [server.child for server in servers]
        try:
            status = client.wait(cell.timeout_s)
        except ChildFailure as failure:
            raise ChildFailure(_tails(f"{failure} ({_state(children)})", client,
                                      *children)) from None
        if status != 0:
            raise ChildFailure(_tails(f"{client.describe_exit()} ({_state(children)})",
                                      client, *children))
        load.check("during the measurement")
        load.stop()
        measured = read_result_file(scratch / "client.result", _samples_asked(cell))
        for child in children:
            child.stop()
        headers = [_server_header(server.child, server.output) for server in servers]
        return measured, headers[0] if count is None else combine_subscriber_headers(headers)
    finally:
        if client is not None:
            client.kill()
        for server in servers:
            server.child.stop()


def _samples_asked(cell: Cell) -> int:
    """The samples the measuring process was asked for: `--samples` per client thread."""
    return cell.samples * (cell.threads or 1)


def _server_header(server: Child, path: Path) -> dict | None:
    """The server's own result (its CPU and resource use); its absence is not fatal."""
    if server.process.returncode != 0:
        return None
    try:
        return read_result_file(path, max_samples=0).header
    except ResultFileError:
        return None


def combine_subscriber_headers(headers: list[dict | None]) -> dict | None:
    """The headers of a fan-out's subscriber processes as one server header: the first
    one's fields, `rusage` and `fanout` added up over all, each under `processes`.
    None if any process wrote none (its counts would be missing)."""
    if not headers or any(header is None for header in headers):
        return None
    if len(headers) == 1:
        return headers[0]
    combined = dict(headers[0])
    combined.pop("rusage", None)
    combined.pop("fanout", None)
    if all("rusage" in h for h in headers):
        usage = {key: sum(h["rusage"][key] for h in headers) for key in
                 ("voluntary_switches", "involuntary_switches", "user_us", "system_us")}
        usage["max_rss_kb"] = max(h["rusage"]["max_rss_kb"] for h in headers)
        combined["rusage"] = usage
    # Without every process's counts the deliveries are unknown (_check_deliveries says so).
    if all((h.get("fanout") or {}).get("events_received") is not None for h in headers):
        combined["fanout"] = {
            "subscribers": sum(h["fanout"]["subscribers"] for h in headers),
            "first_subscriber": headers[0]["fanout"].get("first_subscriber"),
            "events_received": [n for h in headers for n in h["fanout"]["events_received"]],
        }
    combined["processes"] = headers
    return combined


def _state(servers: list[Child]) -> str:
    """What the servers were doing when the client failed: the likely culprits."""
    if len(servers) == 1:
        server = servers[0]
        return server.describe_exit() if server.exited() else "server still running"
    ended = [server.describe_exit() for server in servers if server.exited()]
    return "; ".join(ended) if ended else f"all {len(servers)} subscriber processes still running"


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
    if cell.subscribers is not None:
        _check_deliveries(header, server_header if cell.mode == "remote" else header,
                          cell.subscribers)
    if header.get("injected_delay_ns"):
        record.notes.append(f"slowed on purpose by {header['injected_delay_ns']} ns per call "
                            "(MWBENCH_INJECT_DELAY_NS)")
    process = header.get("process", {})
    if cell.placement == "unpinned" and process.get("cpu_first") != process.get("cpu_last"):
        record.notes.append("the measuring thread moved between CPUs during the loop")
    record.status = "ok"


def _check_deliveries(publisher: dict, subscribers: dict | None, expected: int) -> None:
    """Every subscriber received exactly the events published (contract section 5)."""
    fanout = publisher.get("fanout")
    if fanout is None:
        raise ResultFileError("the publisher's result has no fanout counts (contract section 5)")
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
