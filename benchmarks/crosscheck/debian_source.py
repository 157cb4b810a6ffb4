"""The upstream source of an installed Debian package, fetched and checked, for the
cross-checks that build a middleware's own benchmark programs (zmq.py, fastdds.py).

Debian ships no binary of those programs. Their source is the package's
`.orig.tar.*`, taken with `apt-get source --download-only` from the mirror or
proxy this machine's apt is configured with (`make setup` adds the source
entries: scripts/apt_source_entries.py); apt checks the files against the
signed archive, and the tarball is used only if its SHA-256 is the one the
package's `.dsc` lists.
"""

import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ORIG_TARBALL = re.compile(r"^\s*(?P<sha256>[0-9a-f]{64})\s+\d+\s+(?P<name>\S+\.orig\.tar\.\w+)$")


def installed_source(binary_package):
    """(source package, Debian version) of an installed binary package."""
    out = subprocess.run(["dpkg-query", "-W", "-f", "${source:Package} ${source:Version}",
                          binary_package], capture_output=True, text=True, check=True).stdout
    package, version = out.split()
    return package, version


def orig_tarball(binary_package):
    """(file name, bytes) of the upstream tarball of an installed package,
    checked against the SHA-256 in its `.dsc`; exits naming the file if it does not match."""
    package, version = installed_source(binary_package)
    with tempfile.TemporaryDirectory(prefix="mwbench-source-") as folder:
        fetched = subprocess.run(["apt-get", "source", "--download-only", "-qq",
                                  f"{package}={version}"], cwd=folder, capture_output=True,
                                 text=True, check=False)
        if fetched.returncode != 0:
            sys.exit(f"apt-get source {package}={version} failed: {fetched.stderr.strip()} "
                     "(`make setup` adds source entries for this machine's Debian mirror)")
        dsc = Path(folder) / f"{package}_{version.split(':')[-1]}.dsc"
        sums = dsc.read_text().split("Checksums-Sha256:")[1]
        found = next((m for m in map(ORIG_TARBALL.match, sums.splitlines()) if m), None)
        if found is None:
            sys.exit(f"{dsc.name}: lists no .orig tarball")
        data = (Path(folder) / found["name"]).read_bytes()
    if hashlib.sha256(data).hexdigest() != found["sha256"]:
        sys.exit(f"{found['name']}: SHA-256 does not match {dsc.name}")
    return found["name"], data
