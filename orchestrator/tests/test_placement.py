"""Placement: the CPUs each end gets, and the idle hold's record of what it did."""

import pytest

from mwbench.placement import IdleHold, assign_cpus


def test_same_cpu_pins_both_ends_to_one_cpu():
    cpus = assign_cpus("same-cpu")
    assert cpus.client_cpu == cpus.server_cpu == 0


def test_cross_cpu_pins_the_ends_apart():
    cpus = assign_cpus("cross-cpu")
    assert cpus.client_cpu != cpus.server_cpu


def test_unpinned_leaves_both_to_the_scheduler():
    cpus = assign_cpus("unpinned")
    assert cpus.client_cpu is None and cpus.server_cpu is None


def test_unknown_placement_is_refused():
    with pytest.raises(ValueError):
        assign_cpus("elsewhere")


def test_idle_hold_that_cannot_be_taken_says_why(tmp_path):
    with IdleHold(True, device=str(tmp_path / "no-such-device")) as hold:
        assert not hold.held
        assert "no-such-device" in hold.problem


def test_idle_hold_writes_zero_and_releases_on_exit(tmp_path):
    device = tmp_path / "latency"
    device.write_bytes(b"")
    with IdleHold(True, device=str(device)) as hold:
        assert hold.held
    assert device.read_bytes() == b"\x00\x00\x00\x00"
    assert not hold.held


def test_idle_hold_not_wanted_does_nothing():
    with IdleHold(False) as hold:
        assert not hold.held and hold.problem is None
