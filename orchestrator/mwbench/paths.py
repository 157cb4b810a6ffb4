"""Where mwbench finds its drivers, suites and default database.

The package is installed from the repository (editable), so the repository
root is two levels above this file. MWBENCH_ROOT and MWBENCH_BUILD_DIR
override it, for instance to run the orchestrator against another build.
"""

import errno
import os
from pathlib import Path


def repo_root() -> Path:
    override = os.environ.get("MWBENCH_ROOT")
    return Path(override) if override else Path(__file__).resolve().parents[2]


def build_dir() -> Path:
    override = os.environ.get("MWBENCH_BUILD_DIR")
    return Path(override) if override else repo_root() / "build"


def in_build_of(place, argument: str) -> str:
    """An argument naming a file of this machine's build, as the build of `place`'s host
    (hosts/launcher.py) names it; any other argument unchanged. What a driver's
    --describe names in its build (a daemon's configuration, a node's program) is found
    on each host this way."""
    build = str(build_dir()) + "/"
    if not argument.startswith(build):
        return argument
    return str(place.program(Path(argument.removeprefix(build))))


def suites_dir() -> Path:
    return repo_root() / "suites"


def default_db() -> Path:
    return Path("results") / "mwbench.db"


def make_parent(path: Path) -> None:
    """Make the directory of `path` if it is missing; an OSError says why it cannot be."""
    for parent in (path.parent, *path.parent.parents):
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            break
    path.parent.mkdir(parents=True, exist_ok=True)
