"""A level of the factor `load`: how the measuring process sends its calls.

`closed` is the loop every cell ran before open loops existed: send, wait for the
reply, send again. `constant:RATE` and `poisson:RATE` are open loops: the client
sends on a schedule of intended start times, RATE calls (or events) per second,
evenly spaced or with exponential gaps, without waiting for replies
(docs/driver-contract.md, `--load`). RATE is a positive finite decimal number
(`1000`, `2.5e4`); the drivers read the same text, so the level is kept as
written.
"""

import math
import re
from dataclasses import dataclass

CLOSED = "closed"
OPEN_KINDS = ("constant", "poisson")
# A decimal number as the drivers read it (no sign, no `inf`, no `1_000`).
_RATE = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_OPEN = re.compile(rf"({'|'.join(OPEN_KINDS)}):(.*)")
RULE = ("use closed, constant:RATE or poisson:RATE, RATE a positive finite number of calls "
        "per second (1000, 2.5e4)")


@dataclass(frozen=True)
class Load:
    kind: str  # closed, constant or poisson
    rate_per_s: float | None = None  # None for closed

    @property
    def open(self) -> bool:
        return self.kind != CLOSED

    def text(self) -> str:
        """The level as the drivers read it (`poisson:1000`)."""
        return CLOSED if not self.open else f"{self.kind}:{self.rate_per_s:g}"


def parse_load(level: str | None) -> Load:
    """The load of a level (None: closed); ValueError naming the level and the rule."""
    if level is None or level == CLOSED:
        return Load(CLOSED)
    match = _OPEN.fullmatch(level) if isinstance(level, str) else None
    if match is None:
        raise ValueError(f"load {level!r} is not valid: {RULE}")
    rate_text = match.group(2)
    rate = float(rate_text) if re.fullmatch(_RATE, rate_text) else math.nan
    if not math.isfinite(rate) or rate <= 0:
        raise ValueError(f"load {level}: the rate must be a positive finite number of calls "
                         f"per second (1000, 2.5e4), not {rate_text!r}")
    return Load(match.group(1), rate)


def validated(value: object) -> str:
    """A spec's level, checked (pydantic's BeforeValidator): YAML may hand a number or a
    mapping (`poisson: 1000`, a space after the colon), each a mistake worth naming."""
    if not isinstance(value, str):
        raise ValueError(f"load {value!r} is not valid: {RULE}; write it as one word "
                         "(`poisson:1000`, no space), quoted in a flow list: [\"poisson:1000\"]")
    parse_load(value)
    return value
