"""Every number on the command line, found by walking click's tree of verbs: NaN, the
infinities, a sign, zero and sizes beyond any range are either taken or refused as a usage
error naming the option (exit 2, one line), never a traceback or exit 1; and no number is
left without both bounds, so that a new option must declare its range (cli/numbers.py).

Nothing is measured and no host is built: each verb gets a context that stops it early
when a value is taken (a missing spec for `run`, a dry `plan`, a tiny database), and
`testhosts` a stand-in for its hosts."""

import subprocess
from contextlib import contextmanager
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner

from conftest import mwbench_exe, store_cells
from mwbench.cli import main
from mwbench.cli.numbers import LINK_RATE, FiniteRange, Quantity, rate_bits
from testsupport import testhosts

VALUES = ("nan", "inf", "-inf", "-1", "0", "1e400", "1" * 30)
NEVER_TAKEN = {"nan", "inf", "-inf", "1e400", "1" * 30}
NUMERIC = (click.types.IntParamType, click.types.FloatParamType, Quantity)


def parameters(group: click.Group, path: tuple[str, ...] = ()):
    """(verb's path, verb, parameter) for every parameter of every verb under `group`."""
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from parameters(command, (*path, name))
        else:
            for parameter in command.params:
                yield (*path, name), command, parameter


NUMBERS = [(path, command, p) for path, command, p in parameters(main)
           if isinstance(p.type, NUMERIC)]


def name_of(parameter: click.Parameter) -> str:
    return max(parameter.opts, key=len) if isinstance(parameter, click.Option) \
        else parameter.human_readable_name


def unbounded(parameter: click.Parameter) -> str | None:
    """Why a numeric parameter's type lets a typo through, or None."""
    kind = parameter.type
    if isinstance(kind, click.types.FloatParamType) and not isinstance(kind, FiniteRange):
        return "a float that is not a FiniteRange (click's FloatRange takes NaN)"
    if isinstance(kind, click.types.IntParamType) and not isinstance(kind, click.IntRange):
        return "an integer without a range"
    if getattr(kind, "min", None) is None or getattr(kind, "max", None) is None:
        return "a range without both bounds"
    return None


@pytest.fixture
def contexts(tmp_path, monkeypatch):
    """Per verb: the options and arguments that let it run, and stop it soon after."""
    db = tmp_path / "m.db"
    store_cells(db, [{"samples_ns": [1000, 1100, 1200]}, {"samples_ns": [900, 950, 1000]}])
    spec = tmp_path / "spec.yaml"
    spec.write_text("suite: s\nexperiments:\n  - {name: e, operation: roundtrip, "
                    "drivers: rawtcp, transports: tcp, samples: 10, warmup: 1, launches: 1}\n")

    @contextmanager
    def no_hosts(count, rate=None):  # what a taken COUNT or --rate would build
        yield SimpleNamespace(hosts=[], inventory=tmp_path / "inventory.yaml")

    not_a_db = tmp_path / "not-a.db"  # refused before any pair runs
    not_a_db.write_text("not SQLite")
    monkeypatch.setattr(testhosts, "unavailable", lambda: None)
    monkeypatch.setattr(testhosts, "ssh_hosts", no_hosts)
    return {
        "run": (["--db", str(tmp_path / "run.db")], {"spec": str(tmp_path / "missing.yaml")}),
        "plan": (["--db", str(tmp_path / "none.db")], {"spec": str(spec)}),
        "saturate": (["--db", str(tmp_path / "saturate.db"), "--experiment", "e",
                      "--bound-us", "100"], {"spec": str(tmp_path / "missing.yaml")}),
        "compare": (["--db", str(db)], {"base": "1", "new": "1"}),
        "estimate": (["--db", str(db)], {}),
        "export": (["--db", str(db), "-o", str(tmp_path / "cells.json")], {}),
        "report": (["--db", str(db), "-o", str(tmp_path / "report.html")], {}),
        "testhosts": ([], {"count": "1", "command": "true"}),
        "interop": (["--db", str(not_a_db)], {}),
    }


def arguments_for(path, command, parameter, value, contexts) -> list[str]:
    """The verb's command line with `value` for `parameter`, the context for the rest;
    arguments after `--`, so that "-1" is read as one."""
    options, arguments = contexts[path[-1]]
    if isinstance(parameter, click.Option):
        options = [*options, name_of(parameter), value]
    else:
        arguments = {**arguments, parameter.name: value}
    return [*path, *options, "--", *(arguments[p.name] for p in command.params
                                      if isinstance(p, click.Argument))]


@pytest.mark.parametrize(("path", "command", "parameter"), NUMBERS,
                         ids=[f"{' '.join(path)} {name_of(p)}" for path, _, p in NUMBERS])
def test_a_number_is_taken_or_refused_naming_its_option(path, command, parameter, contexts):
    assert path[-1] in contexts, f"give `{' '.join(path)}` a context that stops it early"
    refusal = f"Invalid value for {parameter.get_error_hint(click.Context(command))}"
    runner = CliRunner(env={"MWBENCH_INVENTORY": None})
    for value in VALUES:
        result = runner.invoke(main, arguments_for(path, command, parameter, value, contexts),
                               prog_name="mwbench")
        said = f"{' '.join(path)} {name_of(parameter)} {value}: {result.output}"
        assert result.exit_code in (0, 2), said
        assert result.exception is None or isinstance(result.exception, SystemExit), said
        assert "Traceback" not in result.output, said
        if result.exit_code == 2:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"mwbench {path[-1]}: "), said
        if "Invalid value for" in result.stderr:  # refused: by this option, by name
            assert refusal in result.stderr, said
        if value in NEVER_TAKEN:
            assert result.exit_code == 2 and refusal in result.stderr, said


def test_no_number_is_left_without_both_bounds():
    found = {(" ".join(path), name_of(p)) for path, _, p in NUMBERS}
    assert {("compare", "--threshold"), ("compare", "--confidence"), ("compare", "BASE"),
            ("run", "--seed"), ("run", "--budget"), ("plan", "--budget"),
            ("saturate", "--bound-us"), ("saturate", "--p99-bound-us"), ("saturate", "--low"),
            ("saturate", "--high"),
            ("estimate", "--payload-bytes"), ("testhosts", "COUNT"),
            ("testhosts", "--rate")} <= found
    loose = {f"{' '.join(path)} {name_of(p)}": unbounded(p) for path, _, p in NUMBERS}
    assert {name: why for name, why in loose.items() if why} == {}


def test_the_check_of_bounds_catches_a_bare_number():
    for kind in (click.FLOAT, click.INT, click.FloatRange(0, 1), click.IntRange(min=0)):
        assert unbounded(click.Option(["--n"], type=kind)) is not None, kind


def store_regression(db) -> tuple[int, int]:
    """Two runs of five launches each, the second 30 µs slower per call."""
    def launches(median_ns):
        return [{"launch": k, "samples_ns": [median_ns + 10 * i + k for i in range(50)]}
                for k in range(1, 6)]
    return store_cells(db, launches(14_000)), store_cells(db, launches(44_000))


def test_compare_refuses_a_nan_threshold_instead_of_passing_a_regression(tmp_path):
    db = tmp_path / "m.db"
    base, new = map(str, store_regression(db))
    gate = subprocess.run([mwbench_exe(), "compare", base, new, "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert gate.returncode == 1, gate.stdout + gate.stderr  # the regression the gate must see
    for option, value in (("--threshold", "nan"), ("--confidence", "nan"),
                          ("--threshold", "1e400"), ("--confidence", "1")):
        done = subprocess.run([mwbench_exe(), "compare", base, new, "--db", str(db), option,
                               value], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (option, value, done.stdout, done.stderr)
        assert done.stderr.startswith(f"mwbench compare: Invalid value for '{option}'")
        assert len(done.stderr.splitlines()) == 1 and done.stdout == ""


@pytest.mark.parametrize(("rate", "bits"), [
    ("100mbit", 1e8), ("1gbit", 1e9), ("1.5Gbit", 1.5e9), ("500KBIT", 5e5), ("10mbps", 8e7),
    ("1kibit", 1024), ("2MiBps", 8 * 2**21), ("8bit", 8), ("1tbit", 1e12)])
def test_a_rate_in_tcs_forms_is_taken_as_written(rate, bits):
    assert LINK_RATE.convert(rate, None, None) == rate  # tc reads it as it is written
    assert rate_bits(rate) == pytest.approx(bits)


@pytest.mark.parametrize("rate", [
    "-1mbit", "100", "0mbit", "7bit", "2tbit", "1e3kbit", "nanbit", "infmbit", "5%",
    "100 mbit", "100mb", "100Mbits", "0x10mbit", "1" * 30 + "mbit", ""])
def test_a_rate_outside_tcs_forms_or_its_range_is_refused(rate):
    with pytest.raises(click.BadParameter):
        LINK_RATE.convert(rate, None, None)


def test_testhosts_checks_its_rate_before_building_anything(monkeypatch):
    built = []

    @contextmanager
    def hosts(count, rate=None):
        built.append((count, rate))
        yield SimpleNamespace(hosts=[], inventory="inventory.yaml")

    monkeypatch.setattr(testhosts, "unavailable", lambda: None)
    monkeypatch.setattr(testhosts, "ssh_hosts", hosts)
    refused = CliRunner().invoke(main, ["testhosts", "2", "--rate", "-1mbit", "--", "true"],
                                 prog_name="mwbench")
    assert refused.exit_code == 2 and built == []
    assert refused.stderr.startswith("mwbench testhosts: Invalid value for '--rate': "
                                     "'-1mbit' is not a rate")
    taken = CliRunner().invoke(main, ["testhosts", "2", "--rate", "100mbit", "--", "true"])
    assert taken.exit_code == 0, taken.output
    assert built == [(2, "100mbit")]
