"""Source entries (deb-src) beside the machine's own Debian entries, for `apt-get source`.

The cross-checks build a middleware's own benchmark programs from the upstream
source of the installed package (benchmarks/crosscheck/debian_source.py), and
take it through apt, from the mirror or proxy this machine is configured with,
never from a host written into the code. Debian's images ship binary entries
only: this writes, for every entry signed by the Debian archive key (deb822
`.sources`) or naming a Debian archive (one-line `.list`), the same entry as
`deb-src`, in one file of its own. Idempotent: prints "changed" when it wrote
the file (then `apt-get update` is due), nothing otherwise.

    python3 scripts/apt_source_entries.py [--apt-dir /etc/apt]
"""

import argparse
import re
import sys
from pathlib import Path

OWN_FILE = "mwbench-deb-src.sources"
DEBIAN_KEYRING = "debian-archive-keyring.gpg"
DEBIAN_ARCHIVE = re.compile(r"/debian(-security)?/?$")


def stanzas(text: str) -> list[dict[str, str]]:
    """The stanzas of a deb822 file, as {field: value}, comments dropped."""
    found, current, field = [], {}, None
    for line in text.splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                found.append(current)
            current, field = {}, None
        elif line[0].isspace() and field:
            current[field] += "\n" + line
        else:
            field, _, value = line.partition(":")
            current[field.strip()] = value.strip()
    return found


def one_line_entries(text: str) -> list[dict[str, str]]:
    """`deb [options] URI suite components...` lines as deb822 fields."""
    found = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if not words or words[0] != "deb":
            continue
        options = ""
        if len(words) > 1 and words[1].startswith("["):
            end = next(i for i, w in enumerate(words) if w.endswith("]"))
            options, words = " ".join(words[1:end + 1])[1:-1], [words[0]] + words[end + 1:]
        if len(words) < 3:
            continue
        entry = {"Types": "deb", "URIs": words[1], "Suites": words[2],
                 "Components": " ".join(words[3:])}
        for option in options.split():
            key, _, value = option.partition("=")
            if key == "signed-by":
                entry["Signed-By"] = value
        found.append(entry)
    return found


def is_debian(entry: dict[str, str]) -> bool:
    if entry.get("Enabled", "yes").lower() == "no":
        return False
    if DEBIAN_KEYRING in entry.get("Signed-By", ""):
        return True
    return any(DEBIAN_ARCHIVE.search(uri) for uri in entry.get("URIs", "").split())


def source_entries(apt_dir: Path) -> str:
    """The deb-src twins of the Debian entries that have none, as a deb822 file."""
    parts = sorted((apt_dir / "sources.list.d").glob("*.sources"))
    entries = [e for p in parts if p.name != OWN_FILE for e in stanzas(p.read_text())]
    lists = [apt_dir / "sources.list", *sorted((apt_dir / "sources.list.d").glob("*.list"))]
    entries += [e for p in lists if p.is_file() for e in one_line_entries(p.read_text())]
    have_sources = {(e.get("URIs"), e.get("Suites")) for e in entries
                    if "deb-src" in e.get("Types", "").split()}
    twins = []
    for entry in entries:
        if "deb" not in entry.get("Types", "").split() or not is_debian(entry):
            continue
        if (entry.get("URIs"), entry.get("Suites")) in have_sources:
            continue
        fields = {**entry, "Types": "deb-src"}
        twins.append("\n".join(f"{key}: {value}" for key, value in fields.items()))
    if not twins:
        return ""
    header = ("# Written by mwbench's scripts/apt_source_entries.py: the source twins of this\n"
              "# machine's Debian entries, for `apt-get source` (benchmarks/crosscheck).\n")
    return header + "\n\n".join(twins) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apt-dir", type=Path, default=Path("/etc/apt"))
    args = parser.parse_args()
    own = args.apt_dir / "sources.list.d" / OWN_FILE
    wanted = source_entries(args.apt_dir)
    current = own.read_text() if own.is_file() else ""
    if wanted == current:
        return
    if wanted:
        own.write_text(wanted)
    else:
        own.unlink()
    print("changed")


if __name__ == "__main__":
    sys.exit(main())
