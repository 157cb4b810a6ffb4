"""Running one cell: its processes (cell_processes.py), then the verdict (judge.py).

Around them, what the cell holds for its whole duration: a scratch directory,
and on each host it uses (hosts/topology.py) a Place, with the idle hold
there (hosts/launcher.py); a daemon the driver declares (daemon.py:
iceoryx's RouDi), which runs from before the server starts until after both
ends have stopped, one per cell, on the host of the measuring process; and
the deployment nodes the level of `hosts` puts on hosts (hosts/nodes.py),
over the same span. Every
failure becomes a `failed` record with the reason and the tail of the
processes' error output, never an exception that would stop the run; a host
that cannot do its part fails the cell, naming the host. A stop signal
(interruption.py) propagates, after the children have been stopped.
"""

import time
import traceback
from contextlib import ExitStack

from .background import BackgroundLoad
from .cell_processes import private_options, run_collocated, run_remote
from .daemon import Daemon
from .drivers import DriverInfo
from .factors import driver_options
from .hosts.inventory import LOCAL, local_host
from .hosts.launcher import HostFailure, LocalLauncher
from .hosts.nodes import DeploymentNodes
from .hosts.topology import Topology
from .judge import judge
from .ledger import scratch_directory
from .matrix import Cell
from .placement import assign_cpus
from .processes import ChildFailure
from .resultfile import ResultFileError
from .store import CellRecord


def run_cell(cell: Cell, driver: DriverInfo, launchers: dict | None = None,
             client: tuple[Cell, DriverInfo] | None = None) -> CellRecord:
    """Run one cell on the hosts of `launchers` (by name; default: this machine only).
    `client`: the remote client's own cell and driver, when another driver's client
    calls this one's server (interop/); its result is the one judged."""
    launchers = launchers or {LOCAL: LocalLauncher(local_host())}
    cpus = assign_cpus(cell["placement"])
    remote = cell["mode"] == "remote"
    record = CellRecord(
        factors=cell.factors(),
        status="failed",
        client_cpu=cpus.client_cpu,
        server_cpu=cpus.server_cpu if remote else None,
        role=cell.role,
        notes=list(cell.notes),
        position=cell.position,
    )
    started = time.monotonic()
    with scratch_directory() as scratch, ExitStack() as places_held:
        load = BackgroundLoad(cell["background"], cell.timeout_s, scratch)
        daemon = nodes = None
        try:
            places = _open_places(cell, launchers, scratch, places_held, record)
            topology = Topology.of(cell["hosts"])
            client_place = places[topology.client]
            daemon = Daemon(driver.daemon, scratch, client_place)
            daemon.start()
            nodes = DeploymentNodes(driver.nodes, topology, places,
                                    cpus.server_cpu if remote else cpus.client_cpu,
                                    driver_options(cell.levels), scratch)
            shared = private_options(cell, driver)
            deployer = {**shared, **nodes.start(cell["mode"])}  # the node map
            if remote:
                measured, server_header = run_remote(cell, driver, scratch, cpus, load, places,
                                                     deployer, shared, client)
            else:
                measured = run_collocated(cell, driver, scratch, cpus.client_cpu, load,
                                          client_place, deployer)
                server_header = None
            daemon.check("during the cell, so the drivers lost it")
            nodes.check("during the cell, so the deployment lost it")
            judge(record, client[0] if client else cell, measured, server_header,
                  shared if remote else deployer)
        except (ChildFailure, ResultFileError, HostFailure) as failure:
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
            if nodes is not None:
                nodes.stop()
            if daemon is not None:
                daemon.stop()
        record.load_generator = load.record
        record.daemon = daemon.record if daemon is not None else None
    record.duration_s = time.monotonic() - started
    return record


def _open_places(cell: Cell, launchers: dict, scratch, stack: ExitStack,
                 record: CellRecord) -> dict:
    """A Place on every host the cell uses, held by `stack` until the cell ends; the idle
    hold is recorded as held only if every host holds it."""
    fanout = cell["subscribers"] is not None
    processes = cell.subscriber_process_count if fanout else 1
    names = Topology.of(cell["hosts"]).hosts(cell["mode"], fanout, processes)
    places = {}
    for name in names:
        places[name] = stack.enter_context(
            launchers[name].place(cell["idle_hold"], scratch, scratch))
    record.idle_hold_held = all(place.hold_held for place in places.values())
    record.notes += [place.hold_problem for place in places.values() if place.hold_problem]
    return places
