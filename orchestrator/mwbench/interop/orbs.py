"""The ORBs of the interoperability matrix, and the driver that plays each one's part.

An ORB is a driver and its options: its object side serves and calls a plain
`Test::RoundTrip` object; its component side hosts a component whose facet
`control` serves it, and calls as a plain client that first navigates to
that facet with `CCMObject::provide_facet("control")` (the `scenario`
obj-comp of the ccm driver: an object client, a component server). Every
CORBA driver serves the same interface (drivers/omniorb/RoundTrip.idl) and
publishes its endpoint as the contract says, so one driver's client can call
another's server.
"""

from dataclasses import dataclass

from ..drivers import DriverInfo, describe, known_driver_names
from ..matrix import HARNESS_OPTIONS

KINDS = ("object", "component")
# What a component side's server hosts and its client does (drivers/ccm/README.md).
COMPONENT_SCENARIO = {"scenario": "obj-comp"}


@dataclass(frozen=True)
class Side:
    """One ORB's part for one kind: the driver that plays it, and its options."""

    orb: str
    kind: str
    driver: str
    options: dict

    def info(self) -> DriverInfo:
        return describe(self.driver)

    def unavailable(self) -> str | None:
        """Why this side cannot run here (as `mwbench list` says it), or None."""
        if self.driver not in known_driver_names():
            return f"driver {self.driver} is not in this tree (no drivers/{self.driver}/)"
        info = self.info()
        if not info.available:
            return f"driver {self.driver} unavailable: {info.reason}"
        for key in self.options:
            if key not in info.options and key not in HARNESS_OPTIONS:
                return (f"driver {self.driver} has no option {key} "
                        f"({self.kind} side of {self.orb} not implemented yet)")
        return None


@dataclass(frozen=True)
class Orb:
    name: str
    doc: str
    object_side: tuple[str, dict]  # driver, options
    component_side: tuple[str, dict]

    def side(self, kind: str) -> Side:
        driver, options = self.object_side if kind == "object" else self.component_side
        return Side(self.name, kind, driver, dict(options))


ORBS = (
    Orb("omniorb", "omniORB 4.2 (C++): the omniorb driver; components: mwccm (the ccm driver)",
        ("omniorb", {}), ("ccm", COMPONENT_SCENARIO)),
    Orb("jacorb", "JacORB 3.9 (Java): the java driver with orb=jacorb",
        ("java", {"orb": "jacorb"}), ("java", {"orb": "jacorb", **COMPONENT_SCENARIO})),
    Orb("glassfish", "GlassFish CORBA ORB 4.2.5 (Java): the java driver with orb=glassfish",
        ("java", {"orb": "glassfish"}), ("java", {"orb": "glassfish", **COMPONENT_SCENARIO})),
)
BY_NAME = {orb.name: orb for orb in ORBS}
ORB_NAMES = tuple(BY_NAME)
