"""Every number the command line takes, declared once with its range.

A verb reads a number only through one of these types, so that NaN, an
infinity (`1e400` is one to a float), a sign or a size out of range is a
click usage error naming the option (exit 2, one line: cli/__init__.py)
before anything is read, built or run. click's own FloatRange lets NaN
through, since every comparison with NaN is false: hence FiniteRange. Every
range has both bounds, so that a typo (an extra zero or thirty) is refused
rather than run; test_cli_numbers.py walks every verb's parameters and fails
on a number that lacks one.
"""

import math
import re
from typing import get_args

import click

from ..durations import parse_duration
from ..factors import BY_NAME
from ..launches.bootstrap import REPLICATES
from ..saturation import MAX_RATE
from ..spec import MAX_BUDGET_S, SEED_LIMIT, RunSettings


class FiniteRange(click.FloatRange):
    """click.FloatRange with both bounds required, refusing NaN and the infinities."""

    name = "number"

    def __init__(self, min: float, max: float, min_open: bool = False,
                 max_open: bool = False):
        super().__init__(min, max, min_open=min_open, max_open=max_open)

    def convert(self, value, param, ctx) -> float:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class Quantity(click.ParamType):
    """A number with a unit that mwbench reads itself; `min` and `max` bound it in the base
    unit (seconds, bits per second), as click's ranges do."""

    min: float
    max: float


class Duration(Quantity):
    """A duration as people write it (durations.py: 90s, 2m, 1.5h), in seconds: more than
    0 and at most `max`."""

    name = "duration"

    def __init__(self, what: str, max: float, max_text: str):
        self.what, self.min, self.max, self.max_text = what, 0.0, max, max_text

    def convert(self, value, param, ctx) -> float:
        try:
            seconds = parse_duration(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)
        if not self.min < seconds <= self.max:  # also refuses NaN; 400 digits are infinite
            self.fail(f"{value} is {seconds:g} s; a {self.what} is more than 0 s and at most "
                      f"{self.max:g} s ({self.max_text})", param, ctx)
        return seconds


# tc's units (tc(8), RATES; its get_rate reads them in any case): bit or bps (a byte a
# second), after an SI prefix (k = 1000) or an IEC one (ki = 1024).
_PREFIXES = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12,
             "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}
_UNITS = {"bit": 1, "bps": 8}
_RATE = re.compile(r"([0-9]+(?:\.[0-9]+)?)((?:[kmgt]i?)?)(bit|bps)", re.IGNORECASE)


def rate_bits(text: str) -> float | None:
    """Bits a second of a rate written in tc's forms (see LinkRate), or None."""
    match = _RATE.fullmatch(text)
    if match is None:
        return None
    number, prefix, unit = match.groups()
    return float(number) * _PREFIXES[prefix.lower()] * _UNITS[unit.lower()]


class LinkRate(Quantity):
    """A link's rate in the forms `tc tbf` reads, a unit required: a bare number was bytes a
    second to older tc and is bits to newer ones. No sign, exponent, NaN or infinity
    (strtod, under tc, reads them all: `-1mbit` became a rate of 18 exabits), and no
    percentage of the device's speed (a veth's is nominal). Kept as written: tc reads it."""

    name = "rate"
    min = 8.0  # a byte a second: tc keeps whole bytes a second, and 0 is no rate at all
    max = 1e12  # a terabit a second, beyond any link this machine carries

    def convert(self, value, param, ctx) -> str:
        bits = rate_bits(str(value))
        if bits is None:
            self.fail(f"{value!r} is not a rate: a positive number and a unit, e.g. 100mbit, "
                      "1gbit, 500kbit, 10mbps (bytes a second)", param, ctx)
        if not self.min <= bits <= self.max:  # 400 digits are infinite, and refused here
            self.fail(f"{value} is {bits:g} bit/s; a rate is at least 8bit (a byte a second) "
                      "and at most 1tbit", param, ctx)
        return str(value)


def factor_levels(name: str) -> click.IntRange:
    """The levels the spec allows for the integer factor `name` (factors.py), for a verb
    that takes one on its command line."""
    return _bounded(get_args(BY_NAME[name].level)[1].metadata)


def run_setting(name: str) -> click.IntRange:
    """The values the spec allows for the run setting `name` (spec.py's RunSettings)."""
    return _bounded(RunSettings.model_fields[name].metadata)


def _bounded(metadata: list) -> click.IntRange:
    low = next(bound.ge for bound in metadata if hasattr(bound, "ge"))
    high = next(bound.le for bound in metadata if hasattr(bound, "le"))
    return click.IntRange(low, high)


# A run id is an SQLite row id: a positive 64-bit integer.
RUN_ID = click.IntRange(1, 2**63 - 1)
# The seed of a run's order and of compare's bootstrap: what the spec's `seed:` allows.
SEED = click.IntRange(0, SEED_LIMIT)
BUDGET = Duration("budget", MAX_BUDGET_S, "a day")
# A slowdown of the median, in percent. 0 would make "no change" need an interval of
# exactly 1; past 1000% (eleven times slower) no gate is left to keep.
THRESHOLD_PCT = FiniteRange(0, 1000, min_open=True, max_open=True)
# Below one half an interval is weaker than a coin's toss; above 1 - 2/REPLICATES (0.999)
# its tails would lie beyond the last of the bootstrap's replicates.
CONFIDENCE = FiniteRange(0.5, 1 - 2 / REPLICATES)
PAYLOAD_BYTES = factor_levels("payload_bytes")
SERVANTS = factor_levels("servants")
THREADS = factor_levels("threads")
SAMPLES = run_setting("samples")
LAUNCHES = run_setting("launches")
# An open loop's rate, in calls per second (`mwbench saturate`), and the bound of its
# response time at a percentile, in µs: more than 0, and far beyond any middleware
# (saturation.MAX_RATE) or patience (an hour).
CALL_RATE = FiniteRange(0, MAX_RATE, min_open=True)
BOUND_US = FiniteRange(0, 3600e6, min_open=True)
# mwbench saturate --probe-seconds: the least a probe's launch sends for; an hour at most.
PROBE_SECONDS = FiniteRange(0, 3600, min_open=True)
# Test hosts take .1 onwards of a /24 whose .254 is this machine (testsupport/namespaces.py).
TEST_HOSTS = click.IntRange(1, 250)
LINK_RATE = LinkRate()
