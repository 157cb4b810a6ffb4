"""Shared helpers of the orchestrator's tests."""

import os
import shutil
from pathlib import Path

import pytest

from mwbench import paths
from mwbench.drivers import program_path

REPO = paths.repo_root()
VECTORS = REPO / "contract" / "vectors"


def driver_built(name: str) -> bool:
    return program_path(name).is_file()


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in a scratch directory, so default paths (results/) land there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def mwbench_exe() -> str:
    exe = Path(os.sys.executable).parent / "mwbench"
    return str(exe) if exe.exists() else shutil.which("mwbench")
