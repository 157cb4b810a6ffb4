"""Starting the processes of one cell and collecting what they wrote.

Remote cells run a server and a client process; collocated cells run one
process. Each runs at its Place (hosts/launcher.py): this machine, or another
host, whose program, files and `--bind` address it uses. A server's endpoint
file is copied to the client's host when they differ, and every result file is
brought back here before it is read. A remote fan-out cell (operation `fanout`,
docs/driver-contract-fanout.md) runs one subscriber process, or one per
subscriber, in place of the server. A background load (background.py), when the
cell asks for one, runs from after the server's endpoint is published until the
client has ended. Every child is stopped and reaped before these functions
return, whatever happened; a child that fails raises ChildFailure with the tail
of the error output, a result file that cannot be trusted ResultFileError.
judge.py says what the results mean.
"""

import uuid
from pathlib import Path

from .background import BackgroundLoad
from .drivers import DriverInfo
from .factors import FACTORS, driver_options
from .hosts.inventory import LOOPBACK
from .hosts.topology import Topology
from .matrix import Cell
from .open_load import load_seed
from .paths import build_dir
from .processes import Child, ChildFailure
from .resultfile import ResultFile, ResultFileError, read_result_file

SERVER_START_TIMEOUT_S = 15.0
CLIENT_CONNECT_TIMEOUT_S = 10.0


def driver_arguments(cell: Cell, driver: DriverInfo, role: str, cpu: int | None,
                     endpoint_files: list[Path], output: Path, fanout: list[str],
                     place=None, own_options: dict | None = None) -> list[str]:
    """The argument list of one driver process (docs/driver-contract.md, section 2) at
    `place` (its program and bind address there; default: this machine's build): the
    cell's levels of every factor that has a driver argument (factors.py; `--load` to
    the measuring process alone, with the seed of its schedule: open_load.py), then the
    settings, the files and the fan-out's share, then the driver options: the spec's,
    the factors passed as one (`driver_option`), and this process's own (the node map
    of the process that deploys, hosts/nodes.py)."""
    program = place.program(program_in_build(driver)) if place else driver.program
    argv = [str(program), "--role", role]
    if place is not None and place.host.bind != LOOPBACK:
        argv += ["--bind", place.host.bind]
    for factor in FACTORS:
        level = cell[factor.name]
        if factor.measurer_only and role == "server":
            continue
        if factor.argument and level is not None and level != factor.unset:
            argv += [factor.argument, str(level)]
    if role != "server" and (seed := load_seed(cell.levels)) is not None:
        argv += ["--load-seed", str(seed)]
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
    for key, value in {**driver_options(cell.levels), **(own_options or {})}.items():
        argv += ["--option", f"{key}={value}"]
    return argv


def program_in_build(driver: DriverInfo) -> Path:
    """The driver's program relative to the build directory, as on every host."""
    return driver.program.relative_to(build_dir())


def _subscribers(count: int) -> list[str]:
    return ["--subscribers", str(count)]


def private_options(cell: Cell, driver: DriverInfo) -> dict:
    """The driver options that keep one cell's traffic to itself, given to all of its
    processes: a DDS partition of the cell's own, for a driver that takes one and a spec
    that names none, since the default partition is shared by every fan-out on the
    network, another user's run beside this one among them."""
    if "dds_partition" in driver.options and "dds_partition" not in driver_options(cell.levels):
        return {"dds_partition": f"mwbench-{uuid.uuid4().hex[:16]}"}
    return {}


def run_collocated(cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                   load: BackgroundLoad, place, own_options: dict | None = None) -> ResultFile:
    place.check_program(program_in_build(driver))
    load.start()
    fanout = _subscribers(cell["subscribers"]) if cell["subscribers"] is not None else []
    output = place.scratch / "collocated.result"
    child = place.start("collocated", driver_arguments(cell, driver, "collocated", cpu, [],
                                                       output, fanout, place, own_options),
                        scratch)
    try:
        _expect_success(child, child.wait(cell.timeout_s))
        load.check("during the measurement")
        load.stop()
        return read_result_file(place.fetch(output, scratch), cell.samples_asked)
    finally:
        child.stop()  # SIGTERM first: a driver that deploys undoes its deployment


class _Server:
    """One server process of a remote cell: the server, or one of a fan-out's subscriber
    processes, with its endpoint and result files."""

    def __init__(self, cell: Cell, driver: DriverInfo, scratch: Path, cpu: int | None,
                 index: int | None, place, own_options: dict):
        self.place = place
        suffix = "" if index is None else f"-{index}"
        self.endpoint = place.scratch / f"endpoint{suffix}"
        self.output = place.scratch / f"server{suffix}.result"
        fanout = []
        if cell["subscribers"] is not None:
            share = cell["subscribers"] // cell.subscriber_process_count
            fanout = _subscribers(share) + ["--first-subscriber", str((index or 0) * share)]
        self.role = "server" if index is None else f"subscribers-{index}"
        argv = driver_arguments(cell, driver, "server", cpu, [self.endpoint], self.output,
                                fanout, place, own_options)
        self.child = place.start(self.role, argv, scratch)

    def endpoint_at(self, client_place) -> Path:
        """Its endpoint file on the client's host: copied there if the hosts differ."""
        if client_place.host.name == self.place.host.name:
            return self.endpoint
        copy = client_place.scratch / self.endpoint.name
        client_place.write(copy, self.place.read(self.endpoint))
        return copy


def run_remote(cell: Cell, driver: DriverInfo, scratch: Path, cpus, load: BackgroundLoad,
               places: dict, server_options: dict | None = None,
               client_options: dict | None = None,
               client_side: tuple[Cell, DriverInfo] | None = None) -> tuple[ResultFile, dict]:
    """The server processes (with `server_options`), then the client (`client_options`):
    of `cell` and `driver`, or the client of `client_side`'s cell and driver (another
    driver's client against this server: interop/)."""
    count = cell.subscriber_process_count if cell["subscribers"] is not None else None
    indices = [None] if count is None else list(range(count))
    topology = Topology.of(cell["hosts"])
    client_place = places[topology.client]
    client_cell, client_driver = client_side or (cell, driver)
    for place in places.values():
        place.check_program(program_in_build(driver))
    client_place.check_program(program_in_build(client_driver))
    servers: list[_Server] = []
    client = None
    try:
        for index in indices:
            place = places[topology.server_host(index)]
            servers.append(_Server(cell, driver, scratch, cpus.server_cpu, index, place,
                                   server_options or {}))
        for server in servers:
            _with_tail(server.child, lambda s=server: s.child.wait_for_file(
                s.endpoint, SERVER_START_TIMEOUT_S, s.place.exists))
        endpoints = [server.endpoint_at(client_place) for server in servers]
        load.start()
        fanout = _subscribers(cell["subscribers"]) if cell["subscribers"] is not None else []
        output = client_place.scratch / "client.result"
        client = client_place.start("client", driver_arguments(
            client_cell, client_driver, "client", cpus.client_cpu, endpoints, output, fanout,
            client_place, client_options),
            scratch)
        children = [server.child for server in servers]
        try:
            status = client.wait(cell.timeout_s)
        except ChildFailure as failure:
            raise ChildFailure(_tails(f"{failure} ({_state(children, places)})", client,
                                      *children)) from None
        if status != 0:
            raise ChildFailure(_tails(f"{client.describe_exit()} "
                                      f"({_state(children, places)})", client, *children))
        load.check("during the measurement")
        load.stop()
        measured = read_result_file(client_place.fetch(output, scratch),
                                    client_cell.samples_asked)
        for child in children:
            child.stop()
        headers = [_server_header(server.child, server.place.fetch(server.output, scratch))
                   for server in servers]
        return measured, headers[0] if count is None else combine_subscriber_headers(headers)
    finally:
        if client is not None:
            client.stop()
        for server in servers:
            server.child.stop()


def _server_header(server, path: Path) -> dict | None:
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


def _state(servers: list[Child], places: dict) -> str:
    """What the servers were doing when the client failed, and which hosts no longer
    answer: the likely culprits."""
    lost = [problem for place in places.values() if (problem := place.problem())]
    if len(servers) == 1:
        server = servers[0]
        state = [server.describe_exit() if server.exited() else "server still running"]
    else:
        state = [server.describe_exit() for server in servers if server.exited()] or \
            [f"all {len(servers)} subscriber processes still running"]
    return "; ".join(state + lost)


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
