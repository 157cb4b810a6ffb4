"""Drivers as their `--describe` would have them for open loops and invocation modes,
written out, and a fixture that shows them to `mwbench run`, `plan` and `saturate` in
place of the build's (test_open_load_matrix.py, test_cli_saturate.py)."""

from pathlib import Path

import pytest

from mwbench import runner
from mwbench.drivers import DriverInfo

OPERATIONS = {"roundtrip": {"payload": False}, "ping": {"payload": False},
              "octets_out": {"payload": True}, "octets": {"payload": True}}
OMNIORB = DriverInfo(
    name="omniorb", program=Path("omniorb"), available=True, operations=OPERATIONS,
    modes={"remote": ["tcp"]},
    options={"invocation": "how the client calls", "delivery_time": "time the delivery"},
    option_values={"invocation": ["static", "dii", "ami_callback", "ami_poller", "oneway"]},
    open_loop=("roundtrip", "octets"),
    one_way_options={"delivery_time": ["1"], "invocation": ["oneway"]})
RAWTCP = DriverInfo(name="rawtcp", program=Path("rawtcp"), available=True,
                    operations=OPERATIONS, modes={"remote": ["tcp"]}, open_loop=("roundtrip",))
DEPLOY = DriverInfo(name="deploy", program=Path("deploy"), available=True,
                    operations={"assembly": {"payload": False}}, modes={"remote": ["tcp"]})
DRIVERS = {d.name: d for d in (OMNIORB, RAWTCP, DEPLOY)}
INVENTORY = """\
hosts:
  near: {reach: ssh near, checkout: /opt/mwbench, bind: 10.0.0.1}
  far: {reach: ssh far, checkout: /opt/mwbench, bind: 10.0.0.2}
"""


@pytest.fixture
def described(monkeypatch):
    """`mwbench run`, `plan` and `saturate` see the drivers of this file, in place of the
    build's."""
    monkeypatch.setattr(runner, "known_driver_names", lambda: sorted(DRIVERS))
    monkeypatch.setattr(runner, "describe", DRIVERS.__getitem__)
