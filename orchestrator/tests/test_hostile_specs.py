"""Specs that cannot hang or exhaust `mwbench run`: each is refused with exit 2, one
message and no traceback, in well under a second of CPU.

A few hundred malformed specs are generated from a valid one: truncations,
deep nesting, collection keys, aliases that expand ("billion laughs"), huge and
non-finite numbers, wrong types, matrices beyond a day, binary junk, and files
that are not specs at all (/dev/zero, a FIFO, a directory, 60 MB). Each goes
through the real command line in this process, so that its CPU time can be
measured: CPU time, not wall-clock time, is what a parser that hangs burns,
and it does not grow when the machine is busy.
"""

import os
import random
import textwrap
import time

import pytest
from click.testing import CliRunner

from conftest import mwbench_exe
from mwbench.cli import main

# Every truncation of it is invalid or names a driver nobody knows: none can run a cell.
BASE = textwrap.dedent("""\
    suite: hostile
    description: a valid spec, cut and bent below
    defaults: {launches: 1, warmup: 10, samples: 100, placement: same-cpu, idle_hold: true}
    experiments:
      - name: ping
        operation: roundtrip
        drivers: [no-such-driver]
        transports: [tcp, uds]
        payload_bytes: [0, 64]
        options: {nodelay: [1, 0]}
    """)
CPU_BUDGET_S = 1.0


def _experiment(drivers: str = "no-such-driver", **keys) -> str:
    """A spec of one experiment with `keys` set (as YAML flow text); with the default
    driver it is refused even where the keys happen to be valid."""
    fields = {"name": "e", "operation": "roundtrip", "drivers": drivers, **keys}
    body = ", ".join(f"{key}: {value}" for key, value in fields.items())
    return f"suite: hostile\nexperiments:\n  - {{{body}}}\n"


def _laughs(levels: int) -> str:
    lines = ["suite: hostile", 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\nexperiments: []\n"


def hostile_texts() -> dict[str, bytes]:
    cases: dict[str, bytes] = {}
    for cut in range(1, len(BASE), 3):
        cases[f"truncated-{cut}"] = BASE[:cut].encode()
    for depth in (13, 14, 20, 100, 5000, 60_000):
        cases[f"flow-maps-{depth}"] = ("suite: " + "{" * depth + "}" * depth).encode()
        cases[f"flow-map-keys-{depth}"] = ("a: " + "{" * depth).encode()
        cases[f"flow-lists-{depth}"] = ("suite: " + "[" * depth + "]" * depth).encode()
        cases[f"unclosed-lists-{depth}"] = ("suite: x\nb: " + "[" * depth + "\n").encode()
    for depth in (13, 50, 2000):
        cases[f"block-lists-{depth}"] = ("suite: x\nexperiments:\n" + "- " * depth
                                         + "x\n").encode()
        cases[f"block-maps-{depth}"] = "".join(" " * i + f"k{i}:\n"
                                               for i in range(depth)).encode()
    cases["map-as-key"] = b"suite: x\n{a: 1}: b\n"
    cases["list-as-key"] = b"suite: x\n? [a, b]\n: c\n"
    cases["alias-as-key"] = b"a: &k x\n*k : y\n"
    for levels in (3, 5, 7, 9, 12):
        cases[f"laughs-{levels}"] = _laughs(levels).encode()
    cases["many-nodes"] = ("suite: x\nexperiments:\n" + "".join(
        f"  - {{name: e{i}, operation: ping, drivers: rawtcp}}\n" for i in range(2000))).encode()
    cases["unknown-anchor"] = b"suite: *nowhere\n"
    numbers = {"warmup": None, "samples": None, "launches": None, "batch": None,
               "timeout_s": None, "memory_limit_mb": None, "payload_bytes": None,
               "servants": None, "threads": None, "priority": None}
    for key in numbers:
        for value in ("-1", "0", "1e400", ".inf", ".nan", "10" + "0" * 30, "9" * 400, "abc",
                      "[]", "{}", "true", "1.5", "'7'"):
            cases[f"{key}={value[:12]}"] = _experiment(**{key: value}).encode()
    cases["launches-billion"] = _experiment("rawtcp", launches=1_000_000_000).encode()
    cases["a-million-cells"] = _experiment(
        "rawtcp",
        payload_bytes="[" + ", ".join(str(i) for i in range(1000)) + "]",
        launches=1000).encode()
    cases["samples-beyond-memory"] = _experiment("rawtcp", samples=10**9, threads=1024).encode()
    cases["calls-beyond-a-day"] = _experiment(
        "rawtcp", samples=10**8, warmup=10**9, launches=100,
        payload_bytes="[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]").encode()
    for key, value in (("suite", "[a, b]"), ("experiments", "rawtcp"), ("defaults", "[1]"),
                       ("experiments", "[[1]]"), ("experiments", "[{name: x}]"),
                       ("suite", "'bad name!'"), ("experiments", "{}")):
        cases[f"type-{key}-{value}"] = f"suite: x\n{key}: {value}\n".encode()
    cases["options-nested"] = _experiment(options="{nodelay: {a: b}}").encode()
    cases["placement-number"] = _experiment(placement=7).encode()
    cases["background-map"] = _experiment(background="{cpu: 2}").encode()
    junk = random.Random(11)
    for size in (1, 7, 64, 512, 4096, 65536):
        for copy in range(3):
            cases[f"random-{size}-{copy}"] = junk.randbytes(size)
    cases["nul-bytes"] = b"suite: x\x00\x00\nexperiments: []\n"
    cases["invalid-utf8"] = b"suite: caf\xe9\nexperiments: []\n"
    cases["utf16"] = "suite: x\n".encode("utf-16")
    cases["control-characters"] = b"suite: \x1b[31mred\x07\n"
    cases["empty"] = b""
    cases["only-a-comment"] = b"# nothing\n"
    cases["a-list"] = b"- a\n- b\n"
    cases["two-documents"] = b"suite: a\n---\nsuite: b\n"
    cases["tabs"] = b"suite: x\nexperiments:\n\t- name: e\n"
    cases["just-over-the-size-bound"] = b"# " + b"x" * (128 * 1024) + b"\n"
    return cases


TEXTS = hostile_texts()


def refuse(path) -> tuple[int, str, float]:
    """`mwbench run PATH` in this process: (exit status, output, CPU seconds)."""
    runner = CliRunner()
    started = time.process_time()
    result = runner.invoke(main, ["run", str(path), "--db", str(path) + ".db"])
    spent = time.process_time() - started
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{path.name}: {result.exception!r}"
    return result.exit_code, result.output, spent


def test_there_are_a_few_hundred_hostile_specs():
    assert len(TEXTS) > 300


@pytest.mark.parametrize("name", list(TEXTS))
def test_a_hostile_spec_is_refused_fast(tmp_path, name):
    path = tmp_path / "spec.yaml"
    path.write_bytes(TEXTS[name])
    status, output, spent = refuse(path)
    assert status == 2, output
    assert "Traceback" not in output
    assert output.startswith("mwbench run: "), output
    assert spent < CPU_BUDGET_S, f"{spent:.2f} s of CPU"
    assert not (tmp_path / "spec.yaml.db").exists()  # refused before anything was stored


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind, message", [
    ("dev-zero", "is not a regular file"),
    ("fifo", "is not a regular file"),
    ("directory", "is not a regular file"),
    ("sixty-megabytes", "has 62,914,560 bytes; a spec has at most 131,072"),
    ("missing", "cannot read the spec: No such file or directory"),
])
def test_files_that_are_not_specs_are_refused_fast(tmp_path, kind, message):
    paths = {"dev-zero": "/dev/zero", "directory": str(tmp_path),
             "missing": str(tmp_path / "missing.yaml")}
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo.yaml")
        paths[kind] = str(tmp_path / "fifo.yaml")
    if kind == "sixty-megabytes":
        with open(tmp_path / "big.yaml", "wb") as big:
            big.truncate(60 * 1024 * 1024)
        paths[kind] = str(tmp_path / "big.yaml")
    runner = CliRunner()
    started = time.process_time()
    result = runner.invoke(main, ["run", paths[kind], "--db", str(tmp_path / "r.db")])
    assert time.process_time() - started < CPU_BUDGET_S
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["random-4096-0", "laughs-9", "flow-maps-60000",
                                  "unclosed-lists-60000", "launches-billion"])
def test_the_real_command_refuses_them_in_one_line(tmp_path, name):
    import subprocess

    path = tmp_path / "spec.yaml"
    path.write_bytes(TEXTS[name])
    proc = subprocess.run([mwbench_exe(), "run", str(path), "--db", str(tmp_path / "r.db")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.startswith("mwbench run: ") and "Traceback" not in proc.stderr
    assert proc.stdout == ""
