"""Fixtures of the deployment's tests, found by name in every module here."""

import pytest
from deployment_programs import MWCCM_PROCESSES


@pytest.fixture
def no_processes_left(own_processes):
    """No node or component server that this test started is still running at its end."""
    yield
    left = own_processes(MWCCM_PROCESSES)
    assert not left, f"processes left behind: {sorted(left)}"
