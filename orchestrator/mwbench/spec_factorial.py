"""What a `factorial:` declaration of an experiment may name, checked when a spec loads.

Two or three factors, each of two to six distinct levels in the experiment
(after `defaults`). Designs of two-level factors are read as 2^k r designs
(factorial_design.py), others as full factorials (full_factorial.py); a
factor the experiment does not vary has no effect to read, and one of more
levels is a sweep, which the report draws as one. Finding either out in the
report, after the run, would waste it.
"""

from .factors import FACTORS

# The factors a `factorial` may name, as cells and exports name them, and the spec key
# each is listed under; a driver option is named `options.KEY`.
FACTORIAL_KEYS = {f.name: f.spec_key for f in FACTORS if f.spec_key and f.name != "options"}
OPTION_PREFIX = "options."
MIN_FACTORS, MAX_FACTORS = 2, 3
MIN_LEVELS = 2
MAX_LEVELS = 6  # a factor of more levels is a sweep, which the report draws as one


def count_problem(names: list[str]) -> str | None:
    if MIN_FACTORS <= len(names) <= MAX_FACTORS:
        return None
    return f"name two or three factors; it names {len(names)}"


def factor_problem(name: str, levels: list | None, before: list[str]) -> str | None:
    """Why `name`, whose values in the experiment are `levels` (None: not a factor), cannot
    be a factor of the design; None when it can."""
    if name in before:
        return f"{name} is named twice"
    if levels is None:
        return (f"{name!r} is not a factor; use one of {', '.join(FACTORIAL_KEYS)}, "
                f"or {OPTION_PREFIX}KEY for a driver option")
    distinct = list(dict.fromkeys(levels))
    if MIN_LEVELS <= len(distinct) <= MAX_LEVELS:
        return None
    if name == "transport" and not levels:
        return ("transports are not listed in this experiment (each driver then runs all of "
                "its own); list two or more, e.g. transports: [tcp, uds]")
    if name.startswith(OPTION_PREFIX):
        where = f"options, e.g. options: {{{name.removeprefix(OPTION_PREFIX)}: [a, b]}}"
    else:
        where = FACTORIAL_KEYS[name]
    if not distinct:
        return f"{name} is not set in this experiment; list its levels under {where}"
    return (f"{name} has {len(distinct)} level{'s' if len(distinct) > 1 else ''} in this "
            f"experiment ({', '.join(map(str, distinct))}); a factor of the design needs "
            f"{MIN_LEVELS} to {MAX_LEVELS}: list them under {where}")
