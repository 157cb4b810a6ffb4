"""Tags of the HdrHistogram log: one compact, unique, parseable name per cell.

The HdrHistogram tools select a histogram by its tag (`HistogramLogProcessor
-tag TAG`), and their log reader splits lines on commas, spaces and line
breaks, so a tag may contain none of those. A tag is the cell's factors in a
fixed order, separated by "/":

    run<id>/<experiment>/<driver>/<mode>/<transport>/<operation>/<payload>B/
    <placement>/<hold|nohold>/<options>/rep<n>[/prio=<n>][/servants=<n>][/threads=<n>]
    [/subscribers=<n>][/subscriber_processes=<one|each>][/assembly=<static|dynamic>]
    [/delivery=<...>][/layer=<...>][/background=<value>][/hosts=<roles>]

for example `run3/ping/rawtcp/remote/tcp/roundtrip/0B/same-cpu/hold/-/rep1`.
Options are `key=value` joined by "+", "-" when there are none. A factor the
cell does not use is "-". Every name and value is percent-encoded (RFC 3986
unreserved characters stay as they are), so "/", "+", "=", "," and spaces in
a value cannot break the split and `parse_tag` gives the factors back. The run
id is part of the tag, so tags stay unique when several runs share one log;
the trailing factors appear only when a cell sets them (as factors.py shows
them: priority when not 0, background when not `none`), to keep tags short
and the tags of older cells unchanged; a new factor joins them by itself.
"""

from urllib.parse import quote, unquote

from pydantic import TypeAdapter

from ..factors import BY_NAME, FACTORS

NONE = "-"
# The factors of the fixed part of a tag; every other follows as name=value when set.
FIXED = ("experiment", "driver", "mode", "transport", "operation", "payload_bytes",
         "placement", "idle_hold", "options", "launch")
TRAILING = tuple(factor for factor in FACTORS if factor.name not in FIXED)
ALIASES = {"priority": "prio"}  # as tags have named it from the start
NAMES_OF = {alias: name for name, alias in ALIASES.items()}


def cell_tag(run_id: int, factors: dict) -> str:
    """The tag of a cell; `factors` as `records.cell_factors` returns them."""
    options = factors.get("options") or {}
    parts = [
        f"run{run_id}",
        *(_text(factors.get(name)) for name in ("experiment", "driver", "mode", "transport",
                                                "operation")),
        NONE if factors.get("payload_bytes") is None else f"{factors['payload_bytes']}B",
        _text(factors.get("placement")),
        {True: "hold", False: "nohold", None: NONE}[factors.get("idle_hold")],
        "+".join(f"{_text(k)}={_text(v)}" for k, v in options.items()) or NONE,
        f"launch{factors['launch']}",
    ]
    for factor in TRAILING:
        if factor.text(factors.get(factor.name)) is not None:  # shown only when set
            name = ALIASES.get(factor.name, factor.name)
            parts.append(f"{name}={_text(factors[factor.name])}")
    return "/".join(parts)


def parse_tag(tag: str) -> dict:
    """The factors named by a tag (options values come back as strings)."""
    run, experiment, driver, mode, transport, operation, payload, placement, hold, options, \
        launch, *extra = tag.split("/")
    factors = {
        "run_id": int(run.removeprefix("run")),
        "experiment": _untext(experiment), "driver": _untext(driver), "mode": _untext(mode),
        "transport": _untext(transport), "operation": _untext(operation),
        "payload_bytes": None if payload == NONE else int(payload.removesuffix("B")),
        "placement": _untext(placement),
        "idle_hold": {"hold": True, "nohold": False, NONE: None}[hold],
        "options": None if options == NONE else dict(
            (unquote(k), unquote(v)) for k, v in (item.split("=") for item in options.split("+"))
        ),
        "launch": int(launch.removeprefix("launch")),
        **{factor.name: _absent(factor) for factor in TRAILING},
    }
    for item in extra:
        name, value = item.split("=")
        factor = BY_NAME[NAMES_OF.get(name, name)]
        factors[factor.name] = TypeAdapter(factor.level).validate_python(unquote(value))
    return factors


def _absent(factor) -> object:
    """The level of a trailing factor that a tag leaves out: the one not shown."""
    return factor.unset if factor.text(factor.unset) is None else None


def _text(value) -> str:
    if value is None:
        return NONE
    text = quote(str(value), safe="")
    return "%2D" if text == NONE else text  # a literal "-" must not read as "unused"


def _untext(text: str) -> str | None:
    return None if text == NONE else unquote(text)
