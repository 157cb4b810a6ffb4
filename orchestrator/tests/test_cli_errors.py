"""Bad paths and numbers on the command line: one line naming the problem, exit 2, no
traceback; and a database that two runs create at once."""

import multiprocessing
import subprocess

import pytest

from conftest import mwbench_exe, store_cells
from mwbench.store import Store


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "m.db"
    store_cells(path, [{"samples_ns": [1000, 1100, 1200]}, {"samples_ns": [900, 950, 1000]}])
    return path


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text("suite: s\nexperiments:\n  - {name: e, operation: roundtrip, "
                    "drivers: rawtcp, transports: tcp, samples: 10, warmup: 1, launches: 1}\n")
    return path


def mwbench(*args, stdout=subprocess.PIPE):
    return subprocess.run([mwbench_exe(), *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


def assert_one_line_error(proc, verb, *words):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"mwbench {verb}: "), lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def test_db_that_is_a_directory(tmp_path, spec):
    for verb in (["run", spec], ["report", "-o", tmp_path / "r.html"], ["export"],
                 ["compare", "1", "2"], ["estimate"]):
        proc = mwbench(*verb, "--db", tmp_path)
        assert_one_line_error(proc, verb[0], "--db", "is a directory")


def test_db_that_is_empty(tmp_path, spec):
    for verb in (["run", spec], ["export"]):
        assert_one_line_error(mwbench(*verb, "--db", ""), verb[0], "--db", "empty path")


def test_db_that_is_not_sqlite(tmp_path, spec):
    text = tmp_path / "notes.db"
    text.write_text("not sqlite at all, just text " * 100)
    for verb in (["run", spec], ["export"], ["report", "-o", tmp_path / "r.html"]):
        proc = mwbench(*verb, "--db", text)
        assert_one_line_error(proc, verb[0], str(text), "not an mwbench database")
    assert text.read_text().startswith("not sqlite")  # untouched


def test_db_that_cannot_be_created(tmp_path, spec):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a directory")
    proc = mwbench("run", spec, "--db", blocker / "m.db")
    assert_one_line_error(proc, "run", "cannot create the database's directory",
                          "Not a directory")


def test_output_that_is_a_directory(tmp_path, db):
    for verb in ("export", "report"):
        proc = mwbench(verb, "--db", db, "-o", tmp_path)
        assert_one_line_error(proc, verb, "--output", "is a directory")


def test_output_in_a_missing_directory_is_made(tmp_path, db):
    for verb, name in (("export", "cells.json"), ("report", "report.html")):
        target = tmp_path / "new" / verb / name
        proc = mwbench(verb, "--db", db, "-o", target)
        assert proc.returncode == 0, proc.stderr
        assert target.stat().st_size > 0


def test_output_that_cannot_be_made(tmp_path, db):
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a directory")
    for verb in ("export", "report"):
        proc = mwbench(verb, "--db", db, "-o", blocker / "out")
        assert_one_line_error(proc, verb, f"cannot write {blocker / 'out'}")


@pytest.mark.parametrize("fmt", ["json", "csv", "samples", "hdr"])
def test_output_on_a_full_disk(db, fmt):
    proc = mwbench("export", "--db", db, "--format", fmt, "-o", "/dev/full")
    assert_one_line_error(proc, "export", "cannot write /dev/full", "No space left")


def test_standard_output_on_a_full_disk(db):
    with open("/dev/full", "w") as full:
        proc = mwbench("export", "--db", db, "--format", "samples", stdout=full)
    assert_one_line_error(proc, "export", "cannot write the standard output")


@pytest.mark.parametrize("args, option", [
    (["export", "--run", "99999999999999999999999"], "--run"),
    (["export", "--run", "0"], "--run"),
    (["export", "--run", "-3"], "--run"),
    (["report", "--run", "x", "-o", "r.html"], "--run"),
    (["compare", "1", "2", "--seed", "-1"], "--seed"),
    (["compare", "1", "99999999999999999999999"], "NEW"),
    (["compare", "1", "2", "--threshold", "-5"], "--threshold"),
    (["estimate", "--run", "99999999999999999999999"], "--run"),
    (["estimate", "--threads", "0"], "--threads"),
    (["run"], "SPEC"),
    (["export", "--format", "xml"], "--format"),
])
def test_bad_numbers_and_choices_are_usage_errors(db, args, option):
    proc = mwbench(*args, "--db", db)
    assert_one_line_error(proc, args[0], option)


def test_an_unknown_run_is_one_line(db):
    assert_one_line_error(mwbench("export", "--db", db, "--run", "7"), "export",
                          "no run with id 7")


def _create_and_run(path: str, barrier) -> None:
    barrier.wait()
    store = Store.create_or_open(path)
    run_id = store.begin_run("s", "s.yaml", "suite: s\n", {}, "0")
    store.end_run(run_id, "finished")
    store.close()


def test_two_runs_creating_one_database_at_once_both_succeed(tmp_path):
    context = multiprocessing.get_context("fork")
    for trial in range(8):
        path = str(tmp_path / f"new-{trial}.db")
        barrier = context.Barrier(3)
        workers = [context.Process(target=_create_and_run, args=(path, barrier))
                   for _ in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        assert [w.exitcode for w in workers] == [0, 0, 0], f"trial {trial}"
        store = Store.open_existing(path)
        assert len(store.runs()) == 3
        store.close()


def test_a_value_close_to_a_choice_names_it_and_a_verb_or_option_too():
    for args, hint in ((["export", "--format", "jsno"], "(did you mean 'json'?)"),
                       (["rnu"], "Did you mean 'run'?"),  # click's own, for verbs
                       (["run", "--sed", "1", "x.yaml"], "'--seed'")):  # and options
        proc = mwbench(*args)
        assert proc.returncode == 2 and hint in proc.stderr, proc.stderr
        assert len(proc.stderr.splitlines()) == 1, proc.stderr
