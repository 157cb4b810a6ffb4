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

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    create_model,
    model_validator,
)
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from .bounded_input import InputError, load_yaml, read_text
from .durations import parse_duration
from .factors import FACTORS, FANOUT_OPERATION, Factor
from .response_bound import (
    DEFAULT_PERCENTILE,
    OLD_SPEC_KEY,
    Bound,
    allowed_percentile,
    check_old_spec_key,
)
from .spec_factorial import FACTORIAL_KEYS, OPTION_PREFIX, count_problem, factor_problem
from .spec_text import did_you_mean, dotted, line_of, plain, translate_transport_aliases

# What an experiment contributes to the combined-factor estimate (estimate.py).
Role = Literal["simple", "size", "servants", "threads", "mixture"]
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
OLD_LAUNCHES_KEY = "repetitions"
SEED_LIMIT = 2**32 - 1
MAX_BUDGET_S = 24 * 3600.0


def _as_list(value: Any) -> Any:
    """Let every factor be written as one value or as a list of values."""
    return value if isinstance(value, list) else [value]


def levels(level_type: Any) -> Any:
    """A factor in a spec: one level or a non-empty list of them."""
    return Annotated[list[level_type], BeforeValidator(_as_list), Field(min_length=1)]


class RunSettings(BaseModel):
    """The settings of a cell that are not factors: one value each."""

    model_config = ConfigDict(extra="forbid")

    # The upper bounds are far beyond any measurement and keep a typo (an extra
    # zero or six) from asking for more than the machine has.
    warmup: int | None = Field(None, ge=0, le=10**9)
    samples: int | None = Field(None, ge=1, le=10**9)
    # Each launch is a new set of processes (launches/); `repetitions` is its old name.
    launches: int | None = Field(None, ge=1, le=10_000)
    batch: Annotated[int, Field(ge=1, le=2**24)] | Literal["auto"] | None = None
    timeout_s: float | None = Field(None, gt=0, le=24 * 3600, allow_inf_nan=False)
    memory_limit_mb: int | None = Field(None, ge=1, le=2**24)

    @model_validator(mode="before")
    @classmethod
    def _old_name_of_launches(cls, data: Any) -> Any:
        if isinstance(data, dict) and OLD_LAUNCHES_KEY in data:
            if "launches" in data:
                raise ValueError(f"set launches only: {OLD_LAUNCHES_KEY} is its old name")
            data = {("launches" if key == OLD_LAUNCHES_KEY else key): value
                    for key, value in data.items()}
        return data


def _factor_field(factor: Factor) -> tuple[Any, Any]:
    if factor.name == "options":  # driver options: a mapping of option key to levels
        return dict[str, levels(factor.level)] | None, None
    if factor.required:
        return levels(factor.level), ...
    return levels(factor.level) | None, None


# Keys that may appear in `defaults` and be overridden by an experiment: the run
# settings and every factor declared settable in defaults (factors.py).
Settings = create_model(
    "Settings", __base__=RunSettings,
    **{f.spec_key: _factor_field(f) for f in FACTORS if f.spec_key and f.in_defaults})


class Experiment(create_model(  # type: ignore[misc]
        "ExperimentFactors", __base__=Settings,
        **{f.spec_key: _factor_field(f) for f in FACTORS if f.spec_key and not f.in_defaults})):
    name: str = Field(pattern=NAME_PATTERN)
    description: str | None = None
    role: Role | None = None
    # Two or three factors analysed as a factorial design (spec_factorial.py).
    factorial: list[str] | None = None
    # The response time an open loop's `bound_percentile` (default p99) must stay under
    # (µs): the report's maximum sustainable rate of each configuration of the
    # experiment's `load` sweep (response_bound.py; `p99_bound_us` is its old name).
    bound_us: float | None = Field(None, gt=0, allow_inf_nan=False,
                                   validation_alias=AliasChoices("bound_us", OLD_SPEC_KEY))
    bound_percentile: Annotated[float, AfterValidator(allowed_percentile)] | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_spelling_of_the_bound(cls, data: Any) -> Any:
        return check_old_spec_key(data)

    @property
    def bound(self) -> Bound | None:
        return None if self.bound_us is None else Bound(
            self.bound_us, self.bound_percentile or DEFAULT_PERCENTILE)


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    suite: str = Field(pattern=NAME_PATTERN)
    description: str | None = None
    # The host inventory (hosts/inventory.py), relative to the spec; `mwbench run
    # --inventory` overrides it. Without either, the only host is `local`.
    inventory: str | None = None
    # The order of the launches (launches/schedule.py); `mwbench run --seed` overrides it.
    seed: int | None = Field(None, ge=0, le=SEED_LIMIT)
    # The time the chooser spends (launches/chooser.py): "2m", "90s"; `--budget` overrides.
    budget: Annotated[float, BeforeValidator(parse_duration),
                      Field(gt=0, le=MAX_BUDGET_S)] | None = None
    defaults: Settings = Settings()
    experiments: list[Experiment] = Field(min_length=1)
    # What the reader changed and says so (an old transport name): "file:line: note: ..."
    _notes: list[str] = PrivateAttr(default_factory=list)

    @property
    def notes(self) -> list[str]:
        return self._notes


# What a cell gets when neither the experiment nor `defaults` says: the run
# settings', and each factor's declared default (transports: None, every
# transport the driver has).
BUILTIN_DEFAULTS = {
    "warmup": 1000,
    "samples": 4000,
    "launches": 5,  # as JMH's forks: one process pair is a draw
    "batch": "auto",
    "timeout_s": 120.0,
    "memory_limit_mb": None,  # no cap on the drivers' address space
    **{f.spec_key: list(f.default) or None for f in FACTORS if f.spec_key and f.in_defaults},
    "options": {},
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
        document = load_yaml(text, path)
    except InputError as error:
        raise SpecError(str(error)) from None
    if not isinstance(document, dict):
        raise SpecError(f"{path}: a spec is a mapping with keys suite, defaults, experiments")
    data = plain(document)
    notes = translate_transport_aliases(path, document, data)
    try:
        spec = Spec.model_validate(data)
    except ValidationError as error:
        raise SpecError(_describe_errors(path, document, error)) from None
    spec._notes = notes
    _check_roles(path, document, spec)
    _check_fanout(path, document, spec)
    _check_driver_option_factors(path, document, spec)
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
            f"{path}:{line_of(document, ['experiments', index, key])}: "
            f"experiments[{index}].{key}: only the operation {FANOUT_OPERATION} has "
            f"subscribers; this experiment measures {', '.join(spec.experiments[index].operation)}"
            for index, key in problems))


def _check_driver_option_factors(path: Path, document: CommentedMap, spec: Spec) -> None:
    """A factor passed to the drivers as an option (factors.py, `driver_option`: assembly)
    is set once, as the factor or under `options`, never both: the driver would be given
    two values of one option, and the cell labelled by one of them only."""
    problems = []
    for index, experiment in enumerate(spec.experiments):
        settings = effective_settings(spec, experiment)
        for factor in FACTORS:
            if not factor.driver_option or factor.driver_option not in settings["options"]:
                continue
            if all(level is None for level in settings[factor.spec_key]):
                continue
            line = line_of(document, ["experiments", index, "options", factor.driver_option])
            problems.append(
                f"{path}:{line}: experiments[{index}] ('{experiment.name}'): "
                f"{factor.spec_key} is set both as `{factor.spec_key}:` and as `options: "
                f"{{{factor.driver_option}: ...}}` (here or in defaults); set it once, as "
                f"`{factor.spec_key}: [...]`, the factor that labels and stores it")
    if problems:
        raise SpecError("\n".join(problems))


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
            f"{path}:{line_of(document, ['experiments', index, 'role'])}: "
            f"experiments[{index}].role: {text}" for index, text in problems))


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
    """A factorial names two or three factors of two to six levels each (spec_factorial.py)."""
    problems = []
    for index, experiment in enumerate(spec.experiments):
        names = experiment.factorial
        if names is None:
            continue
        where = ["experiments", index, "factorial"]
        if problem := count_problem(names):
            problems.append((where, problem))
        for position, name in enumerate(names):
            levels = factor_levels(spec, experiment, name)
            if problem := factor_problem(name, levels, names[:position]):
                problems.append(([*where, position], problem))
    if problems:
        raise SpecError("\n".join(
            f"{path}:{line_of(document, where)}: {dotted(where)}: {text}"
            for where, text in problems))


def line_of_key(text: str, location: list) -> int | None:
    """The line of a key of a spec's text that parse_spec has accepted (for an error found
    later, such as a budget too short for the cells)."""
    return line_of(YAML(typ="rt").load(text), location)


def _describe_errors(path: Path, document: CommentedMap, error: ValidationError) -> str:
    # A union (batch: int | 'auto') fails once per member: join those into one line.
    messages: dict[str, list[str]] = {}
    for item in error.errors():
        location = [part for part in item["loc"] if not _is_validator_tag(part)]
        line = line_of(document, location)
        where = f"{path}:{line}" if line else str(path)
        key = dotted(location) or "(top level)"
        messages.setdefault(f"{where}: {key}", []).append(
            _message(item, location) + _experiment_named(document, location))
    return "\n".join(f"{where}: {'; or: '.join(texts)}" for where, texts in messages.items())


def _experiment_named(document: CommentedMap, location: list) -> str:
    """" (experiment 'NAME')" for a problem inside an experiment that has a name: its
    index alone makes the reader count."""
    if location[:1] != ["experiments"] or len(location) < 3 or not isinstance(location[1], int):
        return ""
    experiments = document.get("experiments")
    try:
        name = experiments[location[1]].get("name")
    except (AttributeError, IndexError, KeyError, TypeError):
        return ""
    return f" (experiment '{name}')" if isinstance(name, str) else ""


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
        return (f"unknown key{did_you_mean(location[-1], model.model_fields)}; allowed keys "
                f"here: {allowed}")
    if item["type"] == "missing":
        return "required key is missing"
    if item["type"] == "literal_error":  # one of a few words: name the closest
        return item["msg"] + did_you_mean(item["input"], re.findall(r"'([^']*)'",
                                                                  item["ctx"]["expected"]))
    if item["type"] == "value_error":
        return str(item["ctx"]["error"])  # our own message, without pydantic's prefix
    return item["msg"]


