"""The experiment spec: a YAML file that declares what to measure.

A spec names a suite, defaults shared by its experiments, and experiments.
Every factor may be one value or a list; lists are expanded into the full
factorial matrix (see matrix.py). Validation happens before anything runs,
and every error names the file, the line and the key, and says what is allowed.
The format is documented in docs/spec.md.
"""

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from .bounded_input import InputError, check_yaml, read_text

Placement = Literal["same-cpu", "cross-cpu", "unpinned"]
Mode = Literal["remote", "collocated"]
# Where the subscribers of a `fanout` cell run: all in one process, or one process each.
SubscriberProcesses = Literal["one", "each"]
FANOUT_OPERATION = "fanout"  # the operation whose meaning the driver contract fixes
# What an experiment contributes to the combined-factor estimate (estimate.py).
Role = Literal["simple", "size", "servants", "threads", "mixture"]
BACKGROUND_NONE = "none"
_BACKGROUND = re.compile(r"cpu:([1-9][0-9]*)")


def background_workers(value: str) -> int:
    """CPU-burning workers of a `background` value: 0 for `none`, N for `cpu:N`."""
    if value == BACKGROUND_NONE:
        return 0
    match = _BACKGROUND.fullmatch(value)
    if match is None:
        raise ValueError(f"background {value!r} is not valid: use none, or cpu:N with N >= 1 "
                         "(N CPU-burning stress-ng workers during the measurement)")
    return int(match.group(1))


def _background(value: Any) -> str:
    # YAML reads `none` as a string; a bare number or `cpu: 2` is a mistake worth naming.
    if not isinstance(value, str):
        raise ValueError(f"background {value!r} is not valid: use none, or cpu:N with N >= 1")
    background_workers(value)
    return value


Background = Annotated[str, BeforeValidator(_background)]


def _as_list(value: Any) -> Any:
    """Let every factor be written as one value or as a list of values."""
    return value if isinstance(value, list) else [value]


def Factor(item_type: Any) -> Any:  # noqa: N802 - reads like a type in the models below
    return Annotated[list[item_type], BeforeValidator(_as_list), Field(min_length=1)]


class Settings(BaseModel):
    """Keys that may appear in `defaults` and be overridden by an experiment."""

    model_config = ConfigDict(extra="forbid")

    # The upper bounds are far beyond any measurement and keep a typo (an extra
    # zero or six) from asking for more than the machine has.
    warmup: int | None = Field(None, ge=0, le=10**9)
    samples: int | None = Field(None, ge=1, le=10**9)
    repetitions: int | None = Field(None, ge=1, le=10_000)
    batch: Annotated[int, Field(ge=1, le=2**24)] | Literal["auto"] | None = None
    timeout_s: float | None = Field(None, gt=0, le=24 * 3600, allow_inf_nan=False)
    memory_limit_mb: int | None = Field(None, ge=1, le=2**24)
    placement: Factor(Placement) | None = None
    idle_hold: Factor(bool) | None = None
    priority: Factor(Annotated[int, Field(ge=0, le=99)]) | None = None
    payload_bytes: Factor(Annotated[int, Field(ge=0, le=2**30)]) | None = None
    servants: Factor(Annotated[int, Field(ge=1, le=10**7)]) | None = None
    threads: Factor(Annotated[int, Field(ge=1, le=1024)]) | None = None
    subscribers: Factor(Annotated[int, Field(ge=1, le=1024)]) | None = None
    subscriber_processes: Factor(SubscriberProcesses) | None = None
    modes: Factor(Mode) | None = None
    transports: Factor(str) | None = None
    options: dict[str, Factor(str | int)] | None = None
    background: Factor(Background) | None = None


class Experiment(Settings):
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    description: str | None = None
    role: Role | None = None
    # Two or three factors analysed as a 2^k design (report/factors/factorial.py).
    factorial: list[str] | None = None
    operation: Factor(str)
    drivers: Factor(str)


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    suite: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    description: str | None = None
    defaults: Settings = Settings()
    experiments: list[Experiment] = Field(min_length=1)


# What a cell gets when neither the experiment nor `defaults` says.
BUILTIN_DEFAULTS = {
    "warmup": 1000,
    "samples": 20000,
    "repetitions": 1,
    "batch": "auto",
    "timeout_s": 120.0,
    "placement": ["same-cpu"],
    "idle_hold": [True],
    "priority": [0],
    "payload_bytes": [0],
    "servants": [None],
    "threads": [None],
    "subscribers": [None],  # operation fanout: 1
    "subscriber_processes": ["one"],
    "modes": ["remote"],
    "transports": None,  # every transport the driver supports
    "options": {},
    "background": [BACKGROUND_NONE],
    "memory_limit_mb": None,  # no cap on the drivers' address space
}


def effective_settings(spec: Spec, experiment: Experiment) -> dict:
    """Experiment keys, else `defaults`, else the built-in defaults."""
    settings = dict(BUILTIN_DEFAULTS)
    for source in (spec.defaults, experiment):
        for key, value in source.model_dump(include=set(BUILTIN_DEFAULTS)).items():
            if value is not None:
                settings[key] = value
    return settings


class SpecError(Exception):
    """An invalid spec; the message names the file, line and key."""


# 25 times the largest built-in suite: room for comments, never for a hostile file.
MAX_SPEC_BYTES = 128 * 1024


def load_spec(path: Path) -> tuple[Spec, str]:
    """Parse and validate a spec file; returns the model and the file's text."""
    path = Path(path)
    try:
        text = read_text(path, MAX_SPEC_BYTES, "spec")
    except InputError as error:
        raise SpecError(str(error)) from None
    return parse_spec(text, path), text


def parse_spec(text: str, path: Path | str) -> Spec:
    """Validate a spec's text (a file's, or one stored with a run); `path` names it in errors.

    The text is bounded first (bounded_input.py), so no text can hang the parser."""
    try:
        check_yaml(text, path)
        document = YAML(typ="rt").load(text)
    except InputError as error:
        raise SpecError(str(error)) from None
    except YAMLError as error:
        raise SpecError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(document, dict):
        raise SpecError(f"{path}: a spec is a mapping with keys suite, defaults, experiments")
    try:
        spec = Spec.model_validate(_plain(document))
    except ValidationError as error:
        raise SpecError(_describe_errors(path, document, error)) from None
    _check_roles(path, document, spec)
    _check_fanout(path, document, spec)
    _check_factorial(path, document, spec)
    return spec


def _check_fanout(path: Path, document: CommentedMap, spec: Spec) -> None:
    """`subscribers` and `subscriber_processes` describe a fan-out: an experiment that
    sets either without the operation `fanout` has made a mistake worth naming."""
    problems = []
    for index, experiment in enumerate(spec.experiments):
        if FANOUT_OPERATION in experiment.operation:
            continue
        for key in ("subscribers", "subscriber_processes"):
            if getattr(experiment, key) is not None:
                problems.append((index, key))
    if problems:
        raise SpecError("\n".join(
            f"{path}:{_line_of(document, ['experiments', index, key])}: "
            f"experiments[{index}].{key}: only the operation {FANOUT_OPERATION} has "
            f"subscribers; this experiment measures {', '.join(spec.experiments[index].operation)}"
            for index, key in problems))


# The reference point each role's sweep must contain: the estimate subtracts it.
_ROLE_NEEDS = {"size": ("payload_bytes", 0), "servants": ("servants", 1),
               "threads": ("threads", 1)}


def _check_roles(path: Path, document: CommentedMap, spec: Spec) -> None:
    """A role's experiment must measure what the estimate will look up in it.

    `simple` is one call with no payload, one servant and one thread; a sweep
    must include its reference point (size 0, one servant, one thread), since
    the estimate is built from differences to it. Checked here, with the
    line, rather than discovered when someone asks for an estimate.
    """
    problems = []
    for index, experiment in enumerate(spec.experiments):
        if experiment.role is None:
            continue
        settings = effective_settings(spec, experiment)
        values = {name: [1 if v is None else v for v in settings[name]]
                  for name in ("payload_bytes", "servants", "threads")}
        if experiment.role == "simple":
            wrong = [f"{name} {values[name]}" for name, one in
                     (("payload_bytes", 0), ("servants", 1), ("threads", 1))
                     if values[name] != [one]]
            if wrong:
                problems.append((index, f"role simple is one call with payload_bytes 0, one "
                                        f"servant and one thread; this experiment has "
                                        f"{', '.join(wrong)}"))
        elif experiment.role in _ROLE_NEEDS:
            name, reference = _ROLE_NEEDS[experiment.role]
            if reference not in values[name]:
                problems.append((index, f"role {experiment.role} needs {name} {reference} in "
                                        "its sweep (the estimate subtracts it); it has "
                                        f"{values[name]}"))
    if problems:
        raise SpecError("\n".join(
            f"{path}:{_line_of(document, ['experiments', index, 'role'])}: "
            f"experiments[{index}].role: {text}" for index, text in problems))


# The factors a `factorial` may name, as cells and exports name them, and the spec key
# each is listed under; a driver option is named `options.KEY`.
FACTORIAL_KEYS = {"driver": "drivers", "operation": "operation", "mode": "modes",
                  "transport": "transports", "payload_bytes": "payload_bytes",
                  "placement": "placement", "idle_hold": "idle_hold", "priority": "priority",
                  "servants": "servants", "threads": "threads", "background": "background",
                  "subscribers": "subscribers", "subscriber_processes": "subscriber_processes"}
OPTION_PREFIX = "options."


def factor_levels(spec: Spec, experiment: Experiment, factor: str) -> list | None:
    """The values `factor` takes in the experiment, in the spec's order, as cells store them
    (option values as text); [] for transports left to the drivers; None for an unknown name."""
    settings = effective_settings(spec, experiment)
    if factor.startswith(OPTION_PREFIX):
        values = settings["options"].get(factor.removeprefix(OPTION_PREFIX), [])
        return [str(value) for value in values]
    if factor not in FACTORIAL_KEYS:
        return None
    key = FACTORIAL_KEYS[factor]
    values = getattr(experiment, key) if key in ("drivers", "operation") else settings[key]
    return [value for value in values or [] if value is not None]


def _check_factorial(path: Path, document: CommentedMap, spec: Spec) -> None:
    """A factorial names two or three factors, each with exactly two levels here.

    The 2^k analysis compares a low and a high level of each factor; a factor
    the experiment does not vary, or varies over three values, has no such
    pair, and finding that out in the report, after the run, would waste it.
    """
    problems = []
    for index, experiment in enumerate(spec.experiments):
        names = experiment.factorial
        if names is None:
            continue
        where = ["experiments", index, "factorial"]
        if not 2 <= len(names) <= 3:
            problems.append((where, f"name two or three factors (a 2^k design); it names "
                                    f"{len(names)}"))
        for position, name in enumerate(names):
            problem = _factorial_problem(spec, experiment, name, names[:position])
            if problem:
                problems.append(([*where, position], problem))
    if problems:
        raise SpecError("\n".join(
            f"{path}:{_line_of(document, where)}: {_dotted(where)}: {text}"
            for where, text in problems))


def _factorial_problem(spec: Spec, experiment: Experiment, name: str,
                       before: list[str]) -> str | None:
    if name in before:
        return f"{name} is named twice"
    levels = factor_levels(spec, experiment, name)
    if levels is None:
        return (f"{name!r} is not a factor; use one of {', '.join(FACTORIAL_KEYS)}, "
                f"or {OPTION_PREFIX}KEY for a driver option")
    distinct = list(dict.fromkeys(levels))
    if len(distinct) == 2:
        return None
    if name == "transport" and not levels:
        return ("transports are not listed in this experiment (each driver then runs all of "
                "its own); list exactly two, e.g. transports: [tcp, unix]")
    if name.startswith(OPTION_PREFIX):
        where = f"options, e.g. options: {{{name.removeprefix(OPTION_PREFIX)}: [a, b]}}"
    else:
        where = FACTORIAL_KEYS[name]
    if not distinct:
        return f"{name} is not set in this experiment; list its two values under {where}"
    return (f"{name} has {len(distinct)} level{'s' if len(distinct) > 1 else ''} in this "
            f"experiment ({', '.join(map(str, distinct))}); a factor of the design needs "
            f"exactly two: list them under {where}")


def _plain(node: Any) -> Any:
    """ruamel's round-trip types as plain dicts and lists (they keep line numbers)."""
    if isinstance(node, dict):
        return {key: _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(value) for value in node]
    return node


def _describe_errors(path: Path, document: CommentedMap, error: ValidationError) -> str:
    # A union (batch: int | 'auto') fails once per member: join those into one line.
    messages: dict[str, list[str]] = {}
    for item in error.errors():
        location = [part for part in item["loc"] if not _is_validator_tag(part)]
        line = _line_of(document, location)
        where = f"{path}:{line}" if line else str(path)
        key = _dotted(location) or "(top level)"
        messages.setdefault(f"{where}: {key}", []).append(_message(item, location))
    return "\n".join(f"{where}: {'; or: '.join(texts)}" for where, texts in messages.items())


def _is_validator_tag(part: Any) -> bool:
    # pydantic adds the member type of a union to the location ("int", "literal['auto']").
    return isinstance(part, str) and ("[" in part or part.startswith("constrained-")
                                      or part in {"int", "str", "bool", "float"})


def _message(item: dict, location: list) -> str:
    if item["type"] == "extra_forbidden":
        model = Experiment if "experiments" in location else Spec
        if location[:1] == ["defaults"]:
            model = Settings
        allowed = ", ".join(model.model_fields)
        return f"unknown key; allowed keys here: {allowed}"
    if item["type"] == "missing":
        return "required key is missing"
    if item["type"] == "value_error":
        return str(item["ctx"]["error"])  # our own message, without pydantic's prefix
    return item["msg"]


def _dotted(location: list) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _line_of(document: Any, location: list) -> int | None:
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
