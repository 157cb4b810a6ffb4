"""Starting the processes of one cell and collecting what they wrote.

Remote cells run a server and a client process; collocated cells run one
process. A remote fan-out cell (operation `fanout`, driver contract section 5)
runs one subscriber process, or one per subscriber, in place of the server. A
background load (background.py), when the cell asks for one, runs from after
the server's endpoint is published until the client has ended. Every child is
stopped and reaped before these functions return, whatever happened; a child
that fails raises ChildFailure with the tail of the error output, a result file
that cannot be trusted ResultFileError. judge.py says what the results mean.
"""

from pathlib import Path

from .background import BackgroundLoad
from .drivers import DriverInfo
from .factors import FACTORS, driver_options
from .matrix import Cell
from .processes import Child, ChildFailure
from .resultfile import ResultFile, ResultFileError, read_result_file

SERVER_START_TIMEOUT_S = 15.0
CLIENT_CONNECT_TIMEOUT_S = 10.0


def driver_arguments(cell: Cell, driver: DriverInfo, role: str, cpu: int | None,
                     endpoint_files: list[Path], output: Path, fanout: list[str]) -> list[str]:
    """The argument list of one driver process (docs/driver-contract.md, section 2): the
    cell's levels of every factor that has a driver argument (factors.py), then the
    settings, the files and the fan-out's share, then the driver options: the spec's and
    the factors passed as one (`driver_option`)."""
    argv = [str(driver.program), "--role", role]
    for factor in FACTORS:
        level = cell[factor.name]
        if factor.argument and level is not None and level != factor.unset:
            argv += [factor.argument, str(level)]
    argv += ["--samples", str(cell.samples), "--warmup", str(cell.warmup),
             "--batch", str(cell.batch)]
    for endpoint_file in endpoint_files:
        argv += ["--endpoint-file", str(endpoint_file)]
    argv += ["--output", str(output), "--timeout", f"{CLIENT_CONNECT_TIMEOUT_S:g}"]
    if cpu is not None:
        argv += ["--cpu", str(cpu)]
    if cell.memory_limit_mb is not None:
        argv += ["--memory-limit-mb", str(cell.memory_limit_mb)]
    argv += fanout
    for key, value in driver_options(cell.levels).items():
        argv += ["--option", f"{key}={value}"]
    return argv


def _subscribers(count: int) -> list[str]:
    return ["--subscribers", str(count)]


def run_collocated(cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                    load: BackgroundLoad) -> ResultFile:
    load.start()
    fanout = _subscribers(cell["subscribers"]) if cell["subscribers"] is not None else []
    output = scratch / "collocated.result"
    child = Child("collocated",
                  driver_arguments(cell, driver, "collocated", cpu, [], output, fanout), scratch)
    try:
        _expect_success(child, child.wait(cell.timeout_s))
        load.check("during the measurement")
        load.stop()
        return read_result_file(output, cell.samples_asked)
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
        if cell["subscribers"] is not None:
            share = cell["subscribers"] // cell.subscriber_process_count
            fanout = _subscribers(share) + ["--first-subscriber", str((index or 0) * share)]
        role = "server" if index is None else f"subscribers-{index}"
        argv = driver_arguments(cell, driver, "server", cpu, [self.endpoint], self.output,
                                fanout)
        self.child = Child(role, argv, scratch)


def run_remote(cell: Cell, driver: DriverInfo, scratch: Path, cpus,
                load: BackgroundLoad) -> tuple[ResultFile, dict]:
    count = cell.subscriber_process_count if cell["subscribers"] is not None else None
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
        fanout = _subscribers(cell["subscribers"]) if cell["subscribers"] is not None else []
        client = Child("client", driver_arguments(cell, driver, "client", cpus.client_cpu,
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
        measured = read_result_file(scratch / "client.result", cell.samples_asked)
        for child in children:
            child.stop()
        headers = [_server_header(server.child, server.output) for server in servers]
        return measured, headers[0] if count is None else combine_subscriber_headers(headers)
    finally:
        if client is not None:
            client.kill()
        for server in servers:
            server.child.stop()


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
