"""mwbench: open, repeatable benchmarks of middleware.

C++ drivers measure (see docs/driver-contract.md); this package runs them,
stores what they measured and judges it.
"""

__version__ = "0.1.0"
