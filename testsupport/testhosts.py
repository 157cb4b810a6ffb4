"""Test hosts: network namespaces that this machine reaches over real SSH, as a lab.

    with testhosts.ssh_hosts(3) as hosts:
        hosts.inventory          # an inventory (inventory.py) naming them host-1, host-2, ...
        hosts.ssh("host-1", "true")

Each host is a namespace of namespaces.hosts(count, reachable=True) running
Debian's OpenSSH server on its address, port 22. The keys are thrown away with
the hosts: a host key per host and one client key, made with ssh-keygen in a
fresh directory, which also holds the client's configuration (ssh -F), its
known_hosts (every host key known before the first connection, so no key is
ever accepted blindly) and the inventory. The servers accept that key only,
for this machine's user, and nothing else: no passwords, no PAM. Leaving the
`with` stops the servers with the namespaces and removes the directory.

`mwbench testhosts N -- COMMAND` runs a command with N test hosts up and its
inventory in MWBENCH_INVENTORY (mwbench/cli/testhosts.py). The inventory names
no checkout or build: the hosts share this machine's files, so mwbench uses its
own on every one of them (hosts/inventory.py).
"""

import getpass
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import namespaces

DIRECTORY_PREFIX = "mwbench-testhosts-"  # then the maker's pid: see remove_dead
SSHD = "/usr/sbin/sshd"  # Debian's openssh-server; sshd insists on an absolute path
READY_TIMEOUT_S = 20.0
POLL_INTERVAL_S = 0.02
# Keep-alives end a session whose peer is gone instead of leaving it open for hours.
SERVER_CONFIG = """\
ListenAddress {address}:22
HostKey {directory}/{name}.host_key
AuthorizedKeysFile {directory}/client_key.pub
AllowUsers {user}
PidFile none
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxSessions 100
MaxStartups 100
ClientAliveInterval 5
ClientAliveCountMax 3
LogLevel ERROR
SetEnv TMPDIR={directory}/{name}.tmp
"""
CLIENT_CONFIG = """\
Host {name}
  HostName {address}
  User {user}
  IdentityFile {directory}/client_key
  IdentitiesOnly yes
  UserKnownHostsFile {directory}/known_hosts
  StrictHostKeyChecking yes
"""


def unavailable() -> str | None:
    """Why test hosts cannot be made here, or None."""
    if (why := namespaces.unavailable()) is not None:
        return why
    if not Path(SSHD).is_file():
        return f"{SSHD} is missing (Debian package openssh-server; `make setup` installs it)"
    if shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        return "ssh and ssh-keygen are missing (Debian package openssh-client)"
    return None


@dataclass
class TestHost:
    name: str  # its name in the inventory and the SSH configuration
    host: namespaces.Host
    server: subprocess.Popen  # its sshd

    @property
    def address(self) -> str:
        return self.host.address


@dataclass
class TestHosts:
    directory: Path
    hosts: list[TestHost]

    @property
    def inventory(self) -> Path:
        return self.directory / "inventory.yaml"

    @property
    def ssh_config(self) -> Path:
        return self.directory / "ssh_config"

    def ssh(self, name: str, *command: str, **options) -> subprocess.CompletedProcess:
        """`ssh NAME COMMAND` with the hosts' configuration (a test's own look)."""
        return subprocess.run(["ssh", "-F", str(self.ssh_config), "-o", "BatchMode=yes",
                               name, *command], **options)

    def by_name(self, name: str) -> TestHost:
        return next(host for host in self.hosts if host.name == name)


@contextmanager
def ssh_hosts(count: int = 2, rate: str | None = None):
    """`count` TestHosts, their servers answering; all of it removed on leaving. `rate`:
    each host's link limited to it both ways (`tc tbf`, namespaces.Host.limit_rate)."""
    directory = Path(tempfile.mkdtemp(prefix=f"{DIRECTORY_PREFIX}{os.getpid()}-"))
    try:
        with namespaces.hosts(count, reachable=True) as joined:
            if rate is not None:
                for host in joined:
                    host.limit_rate(rate)
            names = [f"host-{number}" for number in range(1, len(joined) + 1)]
            _write_keys(directory, names, [host.address for host in joined])
            started = []
            for name, host in zip(names, joined, strict=True):
                started.append(TestHost(name, host, _start_server(directory, name, host)))
            for test_host in started:
                _wait_until_listening(test_host)
            yield TestHosts(directory, started)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def remove_dead() -> list[str]:
    """Remove the test hosts, and their keys' directories, of makers that died without
    removing them (SIGKILL); returns what was removed."""
    removed = namespaces.remove_dead()
    for directory in Path(tempfile.gettempdir()).glob(f"{DIRECTORY_PREFIX}*-*"):
        maker = directory.name.removeprefix(DIRECTORY_PREFIX).split("-")[0]
        if maker.isdigit() and not namespaces.alive(int(maker)):
            shutil.rmtree(directory, ignore_errors=True)
            removed.append(str(directory))
    return removed


def _write_keys(directory: Path, names: list[str], addresses: list[str]) -> None:
    user = getpass.getuser()
    _keygen(directory / "client_key", "mwbench test client")
    known, client = [], []
    for name, address in zip(names, addresses, strict=True):
        _keygen(directory / f"{name}.host_key", f"mwbench test host {name}")
        public = (directory / f"{name}.host_key.pub").read_text().split()[:2]
        known.append(f"{address} {' '.join(public)}\n")
        # Each host's sessions keep their files apart from this machine's /tmp, which the
        # hosts share: so a test judges the cell directories of its own hosts only.
        (directory / f"{name}.tmp").mkdir()
        (directory / f"{name}.sshd_config").write_text(SERVER_CONFIG.format(
            address=address, directory=directory, name=name, user=user))
        client.append(CLIENT_CONFIG.format(name=name, address=address, user=user,
                                           directory=directory))
    (directory / "known_hosts").write_text("".join(known))
    (directory / "ssh_config").write_text("\n".join(client))
    (directory / "inventory.yaml").write_text(_inventory(names, addresses, directory))


def _inventory(names: list[str], addresses: list[str], directory: Path) -> str:
    """The hosts as an inventory, the drivers bound to each host's address; no checkout
    or build: the hosts share this machine's files, and mwbench uses its own."""
    lines = ["# Test hosts (mwbench testhosts): removed with this file.", "hosts:"]
    for name, address in zip(names, addresses, strict=True):
        lines += [f"  {name}:", f"    reach: ssh {name}",
                  f"    ssh_config: {directory / 'ssh_config'}",
                  f"    bind: {address}"]
    return "\n".join(lines) + "\n"


def _keygen(path: Path, comment: str) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment,
                    "-f", str(path)], check=True, stdin=subprocess.DEVNULL)


def _start_server(directory: Path, name: str, host: namespaces.Host) -> subprocess.Popen:
    # sshd checks that its privilege separation directory exists, even when unused.
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
    log = open(directory / f"{name}.sshd.log", "wb")  # noqa: SIM115 - the server's, for good
    return host.start([SSHD, "-D", "-e", "-f", str(directory / f"{name}.sshd_config")],
                      stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)


def _wait_until_listening(test_host: TestHost) -> None:
    """Wait until the host's server accepts a TCP connection, failing with its log if it
    exits first."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        if test_host.server.poll() is not None:
            raise RuntimeError(f"sshd of {test_host.name} exited with status "
                               f"{test_host.server.returncode}")
        try:
            socket.create_connection((test_host.address, 22), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"sshd of {test_host.name} did not listen on "
                                   f"{test_host.address}:22 within {READY_TIMEOUT_S:g} s"
                                   ) from None
        time.sleep(POLL_INTERVAL_S)  # polling a socket: nothing to be told by
