"""scripts/apt_source_entries.py: the deb-src twins of a machine's Debian entries, which
the cross-checks' `apt-get source` takes from the configured mirror."""

import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "apt_source_entries.py"
spec = importlib.util.spec_from_file_location("apt_source_entries", SCRIPT)
entries = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entries)

DEBIAN = """\
Types: deb
# a snapshot's address, commented out
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: https://vendor.example/apt
Suites: stable
Components: main
Signed-By: /usr/share/keyrings/vendor.gpg
"""


def apt_dir(tmp_path, sources=DEBIAN, one_line=""):
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "debian.sources").write_text(sources)
    if one_line:
        (tmp_path / "sources.list").write_text(one_line)
    return tmp_path


def run(folder):
    return subprocess.run([sys.executable, str(SCRIPT), "--apt-dir", str(folder)],
                          capture_output=True, text=True, check=True).stdout


def test_debian_entries_get_source_twins_and_others_none(tmp_path):
    folder = apt_dir(tmp_path, one_line=(
        "deb [arch=amd64 signed-by=/k.gpg] http://proxy.example:3142/debian-security "
        "bookworm-security main # a comment\n"
        "deb http://ppa.example/ubuntu jammy main\n"))
    assert run(folder) == "changed\n"
    written = entries.stanzas((folder / "sources.list.d" / entries.OWN_FILE).read_text())
    assert written == [
        {"Types": "deb-src", "URIs": "http://mirror.example/debian",
         "Suites": "bookworm bookworm-updates", "Components": "main",
         "Signed-By": "/usr/share/keyrings/debian-archive-keyring.gpg"},
        {"Types": "deb-src", "URIs": "http://proxy.example:3142/debian-security",
         "Suites": "bookworm-security", "Components": "main", "Signed-By": "/k.gpg"}]
    assert run(folder) == ""  # nothing to change the second time


def test_entries_that_have_sources_already_get_no_twin(tmp_path):
    folder = apt_dir(tmp_path, DEBIAN.replace("Types: deb\n#", "Types: deb deb-src\n#", 1))
    assert run(folder) == ""
    assert not (folder / "sources.list.d" / entries.OWN_FILE).exists()


def test_a_disabled_entry_gets_no_twin(tmp_path):
    folder = apt_dir(tmp_path, DEBIAN.replace("Components: main\nSigned-By: /usr/share/keyrings/"
                                              "debian", "Enabled: no\nComponents: main\n"
                                              "Signed-By: /usr/share/keyrings/debian", 1))
    assert run(folder) == ""
