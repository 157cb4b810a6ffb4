"""The driver contract's open-loop load (docs/driver-contract.md,
sections 1 and 2, and docs/driver-contract-open-loop.md),
checked the same way on every driver: a bad --load is refused, and so is an open load
for an operation the driver does not list in `open_loop`. A driver's own test file
runs its open loop."""

import subprocess

import pytest
from driver_processes import HANG_S
from test_contract import describe, each_driver, remote_cell


def run_client(driver, tmp_path, *args):
    return subprocess.run(
        [str(driver.program), "--role", "client", *args, "--endpoint-file",
         str(tmp_path / "endpoint")],
        capture_output=True, text=True, timeout=HANG_S)


def assert_refused(proc, driver, *fragments):
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"mwbench-driver-{driver.name}: error: --load "), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    for fragment in fragments:
        assert fragment in proc.stderr, proc.stderr


@each_driver()
def test_open_loop_lists_operations_of_the_driver(driver):
    d = describe(driver)
    if "open_loop" in d:
        assert d["open_loop"] and set(d["open_loop"]) <= set(d["operations"]), d["open_loop"]
        assert len(set(d["open_loop"])) == len(d["open_loop"]), d["open_loop"]


@each_driver()
@pytest.mark.parametrize("value", ["poisson:-3", "constant:0", "constant:inf", "steady:100"])
def test_a_bad_load_is_exit_2_and_one_line(driver, tmp_path, value):
    assert_refused(run_client(driver, tmp_path, *remote_cell(driver), "--load", value),
                   driver, f"--load {value}")


@each_driver()
def test_an_open_load_for_an_operation_outside_open_loop_is_exit_2(driver, tmp_path):
    d = describe(driver)
    # fanout last: it is the one operation with arguments of its own
    outside = sorted((name for name in d["operations"] if name not in d.get("open_loop", [])),
                     key=lambda name: name == "fanout")
    if not outside:
        pytest.skip(f"{driver.name} runs every operation in an open loop")
    operation = outside[0]
    payload = "8" if d["operations"][operation]["payload"] else "0"
    proc = run_client(driver, tmp_path, "--operation", operation, "--transport",
                      d["modes"]["remote"][0], "--payload-bytes", payload,
                      "--load", "constant:1000")
    assert_refused(proc, driver, "--load constant:1000",
                   f"no open-loop load for operation {operation}")
