"""The upstream source of an installed Debian package, fetched and checked, for the
cross-checks that build a middleware's own benchmark programs (zmq.py, fastdds.py).

Debian ships no binary of those programs. Their source is the package's
`.orig.tar.*` in deb.debian.org's pool, whose SHA-256 the package's `.dsc`
lists: the tarball is used only if it matches.
"""

import hashlib
import re
import subprocess
import sys
import urllib.request

POOL = "https://deb.debian.org/debian/pool/main"
ORIG_TARBALL = re.compile(r"^\s*(?P<sha256>[0-9a-f]{64})\s+\d+\s+(?P<name>\S+\.orig\.tar\.\w+)$")


def installed_source(binary_package):
    """(source package, Debian version) of an installed binary package."""
    out = subprocess.run(["dpkg-query", "-W", "-f", "${source:Package} ${source:Version}",
                          binary_package], capture_output=True, text=True, check=True).stdout
    package, version = out.split()
    return package, version


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as answer:
        return answer.read()


def orig_tarball(binary_package):
    """(file name, bytes) of the upstream tarball of an installed package,
    checked against the SHA-256 in its `.dsc`; exits naming the file if it does not match."""
    package, version = installed_source(binary_package)
    base = f"{POOL}/{package[0]}/{package}"
    dsc_name = f"{package}_{version.split(':')[-1]}.dsc"
    sums = fetch(f"{base}/{dsc_name}").decode().split("Checksums-Sha256:")[1]
    found = next((m for m in map(ORIG_TARBALL.match, sums.splitlines()) if m), None)
    if found is None:
        sys.exit(f"{dsc_name}: lists no .orig tarball")
    data = fetch(f"{base}/{found['name']}")
    if hashlib.sha256(data).hexdigest() != found["sha256"]:
        sys.exit(f"{found['name']}: SHA-256 does not match {dsc_name}")
    return found["name"], data
