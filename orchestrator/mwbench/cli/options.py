"""Options several verbs share, checked where click parses them.

A bad path or number on the command line is a usage error: one line naming
the option, and exit status 2 (cli/__init__.py prints click's usage errors
that way), before anything is read or written. The numbers' types are
numbers.py's.
"""

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import click

from ..overrides import Overrides
from ..paths import make_parent
from ..spec_text import did_you_mean
from .numbers import BUDGET, LAUNCHES, SAMPLES, SEED


class Choice(click.Choice):
    """click's Choice, naming the closest choice when a value is none of them (click
    suggests for verbs and options, not for their values)."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as error:
            hint = did_you_mean(value, self.choices)
            if not hint:
                raise
            self.fail(f"{error.message.rstrip('.')}{hint}", param, ctx)


def _file_path(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A path that can name a file: not empty, not a directory."""
    if value is None:
        return None
    if value == "":
        raise click.BadParameter("an empty path names no file", ctx, param)
    path = Path(value)
    if path.is_dir():
        raise click.BadParameter(f"{value} is a directory; give a file's path", ctx, param)
    return path


def budget_option() -> Callable:
    return click.option("--budget", type=BUDGET, default=None, metavar="DURATION",
                        help="Time to spend (e.g. 90s, 2m): launches and samples per cell are "
                             "chosen from the variance measured on this machine; overrides "
                             "the spec's `budget:`.")


def spec_options(command: Callable) -> Callable:
    """What `mwbench run` and `mwbench plan` read beside SPEC: --inventory, --seed, --budget,
    and the overrides --filter, --samples and --launches (overrides.py; `overrides_of`
    makes them one Overrides)."""
    options = [
        click.option("--inventory", type=click.Path(path_type=Path), default=None,
                     envvar="MWBENCH_INVENTORY", show_envvar=True,
                     help="Host inventory (YAML) naming the hosts of the factor `hosts`; "
                          "overrides the spec's `inventory:`."),
        seed_option(),
        budget_option(),
        click.option("--filter", "experiments", multiple=True, metavar="EXPERIMENT",
                     help="Run only this experiment of the spec (repeat for several)."),
        click.option("--samples", type=SAMPLES, default=None,
                     help="Samples per launch in every experiment, instead of the spec's."),
        click.option("--launches", type=LAUNCHES, default=None,
                     help="Launches of every configuration, instead of the spec's."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def overrides_of(experiments: tuple[str, ...], samples: int | None, launches: int | None,
                 budget: float | None) -> Overrides:
    """The overrides given; a usage error naming the flag when --budget would choose what
    one of them sets."""
    overrides = Overrides(tuple(dict.fromkeys(experiments)), samples, launches)
    if budget is not None and (flag := overrides.fixes_the_plan()):
        raise click.UsageError(f"{flag} sets what --budget chooses: give one of them")
    return overrides


def seed_option() -> Callable:
    return click.option("--seed", type=SEED, default=None,
                        help="Seed of the order of the launches (randomised blocks); "
                             "overrides the spec's `seed:`; default: a new one, printed and "
                             "stored with the run.")


def db_option(help_text: str) -> Callable:
    return click.option("--db", type=click.Path(), default=None, callback=_file_path,
                        help=help_text)


def output_option(help_text: str, required: bool = False) -> Callable:
    return click.option("-o", "--output", type=click.Path(), default=None, required=required,
                        callback=_file_path, help=help_text)


class OutputError(click.ClickException):
    """An output file that could not be written; exit status 2, one line."""

    exit_code = 2


@contextmanager
def output_file(path: Path, newline: str | None = None) -> Iterator[IO[str]]:
    """`path` opened for writing, its directory made if missing. A failure to create or
    write it is an OutputError naming it, and a regular file left half written is
    removed (never a device such as /dev/full)."""
    try:
        make_parent(path)
        stream = open(path, "w", encoding="utf-8", newline=newline)  # noqa: SIM115
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror}") from None
    try:
        with stream:
            yield stream
    except OSError as error:
        if path.is_file() and not path.is_symlink():
            os.unlink(path)
        raise OutputError(f"cannot write {path}: {error.strerror}") from None
