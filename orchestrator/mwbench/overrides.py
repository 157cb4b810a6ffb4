"""`mwbench run`'s overrides of a spec: only some experiments, other samples or launches.

They change the spec as read, before the matrix is expanded, so that the plan, the
cells and the store see one set of values; the run records them (in its launch
plan, store.py) and the report's disclosure says what was overridden.
"""

from dataclasses import asdict, dataclass

from .spec import Spec, SpecError
from .spec_text import did_you_mean


@dataclass(frozen=True)
class Overrides:
    experiments: tuple[str, ...] = ()  # --filter: only these experiments; () every one
    samples: int | None = None  # --samples: per launch, in every experiment
    launches: int | None = None  # --launches: of every configuration

    def __bool__(self) -> bool:
        return bool(self.experiments) or self.samples is not None or self.launches is not None

    def record(self) -> dict:
        """What the run stores: the overrides that were given."""
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in asdict(self).items() if value not in ((), None)}

    def fixes_the_plan(self) -> str | None:
        """The flag that fixes what a time budget would choose, if any."""
        return next((flag for flag, value in (("--samples", self.samples),
                                              ("--launches", self.launches))
                     if value is not None), None)


NONE = Overrides()  # the spec as it is


def overridden(spec: Spec, overrides: Overrides, spec_path: object) -> Spec:
    """The spec with `overrides` applied; SpecError naming --filter for an experiment the
    spec does not have."""
    names = [experiment.name for experiment in spec.experiments]
    unknown = [name for name in overrides.experiments if name not in names]
    if unknown:
        raise SpecError("; ".join(
            f"--filter {name}: {spec_path} has no experiment '{name}'"
            f"{did_you_mean(name, names)}" for name in unknown)
            + f" (its experiments: {', '.join(names)})")
    experiments = [experiment for experiment in spec.experiments
                   if not overrides.experiments or experiment.name in overrides.experiments]
    changed = {key: value for key, value in (("samples", overrides.samples),
                                             ("launches", overrides.launches))
               if value is not None}
    result = spec.model_copy(update={"experiments": [
        experiment.model_copy(update=changed) for experiment in experiments]})
    result._notes = list(spec.notes)
    return result

