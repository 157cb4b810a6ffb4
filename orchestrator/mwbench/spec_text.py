"""Where things are in a spec's text, and what a reader probably meant.

Errors about a spec name the file and the line (`line_of`); an unknown key or
value says which known one it is close to (`did_you_mean`, difflib); and the
old names of a transport are read as the name every driver now uses, with a
note (`TRANSPORT_ALIASES`).
"""

import difflib
from collections.abc import Iterable
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

# A Unix-domain socket is `uds` in every driver. omniORB called it `unix` and ZeroMQ `ipc`
# (their own words) until both said `uds`; a spec that still says so means `uds`. The spec
# reader translates, not the drivers: the stored factor, the labels and compare's matching
# then see one name, and a spec listing both names still measures the cell once.
TRANSPORT_ALIASES = {"unix": "uds", "ipc": "uds"}


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """" (did you mean 'x'?)" for the choice closest to `word`, or "" when none is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def plain(node: Any) -> Any:
    """ruamel's round-trip types as plain dicts and lists (they keep line numbers)."""
    if isinstance(node, dict):
        return {key: plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain(value) for value in node]
    return node


def dotted(location: list) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def line_of(document: Any, location: list) -> int | None:
    """1-based line of the deepest node of `location` that exists in the YAML."""
    node, line = document, None
    for part in location:
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            break
    if line is None and isinstance(node, (CommentedMap, CommentedSeq)):
        line = node.lc.line + 1
    return line


def translate_transport_aliases(path: Any, document: Any, data: dict) -> list[str]:
    """Replace the old transport names in `data` (the plain form of `document`) by `uds`,
    keeping each list free of repeats; returns a note, with its line, for each."""
    notes = []
    experiments = data.get("experiments")
    places = [(["defaults"], data.get("defaults"))]
    if isinstance(experiments, list):
        places += [(["experiments", index], experiment)
                   for index, experiment in enumerate(experiments)]
    for place, holder in places:
        if not isinstance(holder, dict) or "transports" not in holder:
            continue
        values = holder["transports"]
        listed = values if isinstance(values, list) else [values]
        if not any(isinstance(v, str) and v in TRANSPORT_ALIASES for v in listed):
            continue
        for position, value in enumerate(listed):
            if isinstance(value, str) and value in TRANSPORT_ALIASES:
                where = [*place, "transports"] + ([position] if isinstance(values, list) else [])
                notes.append(f"{path}:{line_of(document, where)}: note: transport '{value}' "
                             f"is now called '{TRANSPORT_ALIASES[value]}' (a Unix-domain "
                             "socket, in every driver); read as such")
        translated: list = []
        for value in listed:
            value = TRANSPORT_ALIASES.get(value, value) if isinstance(value, str) else value
            if value not in translated:
                translated.append(value)
        holder["transports"] = translated
    return notes


def line_of_name(document: Any, experiment: int, key: str, name: Any) -> int | None:
    """The line of `name` as a value (or, under `options`, a key) of `key`, in the experiment
    or else in `defaults`; the experiment's line when neither lists it."""
    for place in (["experiments", experiment, key], ["defaults", key]):
        node = document
        for part in place:
            node = node[part] if isinstance(node, (CommentedMap, CommentedSeq)) and (
                part in node if isinstance(node, CommentedMap) else part < len(node)) else None
        if isinstance(node, CommentedMap) and name in node:
            return line_of(document, [*place, name])
        if isinstance(node, CommentedSeq) and name in node:
            return line_of(document, [*place, list(node).index(name)])
        if node == name:
            return line_of(document, place)
    return line_of(document, ["experiments", experiment])
