"""Durations as people write them: `90s`, `2m`, `1.5h`, or a number of seconds."""

import re
from typing import Any

_DURATION = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|h)?")
_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, None: 1.0}


def parse_duration(value: Any) -> float:
    """Seconds of `value`; ValueError naming the forms allowed."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a duration: write e.g. 90s, 2m or 1.5h")
    if isinstance(value, (int, float)):
        return float(value)
    match = _DURATION.fullmatch(str(value).strip())
    if match is None:
        raise ValueError(f"{value!r} is not a duration: write e.g. 90s, 2m or 1.5h")
    return float(match.group(1)) * _SECONDS[match.group(2)]
