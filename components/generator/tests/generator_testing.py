"""Shared by the generator's tests: paths, and golden-file comparison.

Golden files pin the generator's output byte for byte. After a deliberate
change, regenerate them and review the diff:

    MWCCM_UPDATE_GOLDEN=1 .venv/bin/pytest components/generator/tests
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GENERATOR = TESTS.parent
# The generator is not installed: import it from its folder. (Not in a
# conftest.py, which would shadow orchestrator/tests/conftest.py: pytest
# imports both under the one module name `conftest`.)
if str(GENERATOR) not in sys.path:
    sys.path.insert(0, str(GENERATOR))
REPOSITORY = GENERATOR.parents[1]
INPUTS = TESTS / "inputs"
GOLDEN = TESTS / "golden"
COMPONENTS_IDL_DIR = REPOSITORY / "components" / "idl"
ROUNDTRIP_IDL_DIR = REPOSITORY / "drivers" / "omniorb"


def updating() -> bool:
    return os.environ.get("MWCCM_UPDATE_GOLDEN") == "1"


def assert_matches_golden(path: Path, text: str) -> None:
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run with MWCCM_UPDATE_GOLDEN=1 to create it")
    expected = path.read_text()
    assert text == expected, (
        f"output differs from {path.relative_to(REPOSITORY)}; if the change is intended, "
        "regenerate with MWCCM_UPDATE_GOLDEN=1 and review the diff"
    )


def omniidl() -> str:
    found = shutil.which("omniidl")
    if found is None:
        pytest.skip("omniidl is not installed (apt-get install omniidl)")
    return found
