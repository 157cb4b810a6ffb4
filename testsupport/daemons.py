"""The daemon a driver declares in `--describe` (`"daemon"`: iceoryx's RouDi), started for
a test as the contract describes it (docs/driver-contract-daemons.md): its leftovers
removed, started in a session of its own, waited for until its `ready_socket` answers,
then stopped (SIGTERM, SIGKILL after a grace period) and its leftovers removed again.

    with running(describe["daemon"], tmp_path):
        ... start the driver's processes ...

A daemon that answers already was started by someone else: DaemonBusy, which a test
turns into a skip (iceoryx has one RouDi per machine; conftest.py's `once_per_machine`
keeps the tests that start one apart). Standard library only.
"""

import glob
import os
import shutil
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

START_TIMEOUT_S = 30.0  # only a hang exceeds it
STOP_GRACE_S = 5.0


class DaemonBusy(Exception):
    """The daemon's socket answers before this test started it."""


def answers(path: str) -> bool:
    """Whether a process has a Unix datagram socket bound at `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def remove_leftovers(daemon: dict) -> None:
    for path in (path for pattern in daemon.get("leftovers", []) for path in glob.glob(pattern)):
        try:
            os.unlink(path)
        except FileNotFoundError:  # a process may remove its own meanwhile
            pass


@contextmanager
def running(daemon: dict | None, directory: Path):
    """The daemon described by `daemon` (None: nothing to run), its output in `directory`."""
    if not daemon:
        yield None
        return
    program = shutil.which(daemon["program"])
    if program is None:
        raise FileNotFoundError(f"{daemon['program']} not found (Debian package "
                                f"{daemon.get('package')})")
    ready = daemon["ready_socket"]
    if answers(ready):
        raise DaemonBusy(f"a {daemon['program']} this test did not start is running")
    remove_leftovers(daemon)
    log_path = Path(directory) / "daemon.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen([program, *daemon.get("args", [])], stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not answers(ready):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{daemon['program']} did not bind {ready}: "
                                   f"{log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.01)  # polling its socket: nothing tells when it binds
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        remove_leftovers(daemon)
