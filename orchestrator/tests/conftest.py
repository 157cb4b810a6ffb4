"""Shared helpers of the orchestrator's tests."""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mwbench import paths
from mwbench.drivers import program_path

REPO = paths.repo_root()
VECTORS = REPO / "contract" / "vectors"
# Headless Chromium as the report's browser tests run it: offline, no profile sync.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


# The experiment most specs of the tests start with: a round trip of both baseline drivers,
# every transport and mode (a spec's text, indented as an item of `experiments:`).
PING_EXPERIMENT = """\
  - name: ping
    operation: roundtrip
    drivers: [rawtcp, omniorb]
    transports: [tcp, uds]
    modes: [remote, collocated]
"""


def driver_built(name: str) -> bool:
    return program_path(name).is_file()


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run in a scratch directory, so default paths (results/) land there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


STANDIN = Path(__file__).with_name("standin_driver.py")


@pytest.fixture
def standin_root(tmp_path):
    """A repository with one driver, `standin` (standin_driver.py), and a build holding its
    program; `standin_environment` points mwbench at both."""
    root = tmp_path / "root"
    (root / "drivers" / "standin").mkdir(parents=True)
    (root / "drivers" / "standin" / "CMakeLists.txt").write_text(
        "# builds mwbench-driver-standin\n")
    program = tmp_path / "build" / "drivers" / "standin" / "mwbench-driver-standin"
    program.parent.mkdir(parents=True)
    program.write_text(f"#!/bin/sh\nexec {sys.executable} {STANDIN} \"$@\"\n")
    program.chmod(0o755)
    return root


def standin_environment(root: Path, tmp_path: Path) -> dict:
    """The environment of an `mwbench` process that sees only the stand-in driver."""
    return {**os.environ, "MWBENCH_ROOT": str(root), "MWBENCH_BUILD_DIR": str(tmp_path / "build"),
            "MWBENCH_STATE_DIR": str(tmp_path / "state")}


def seed_in_spec_order(configurations: int) -> int:
    """A seed whose first block of launches runs `configurations` in the spec's order: for
    the tests that need a short cell stored before a long one (launches/schedule.py)."""
    from mwbench.launches.schedule import randomised_blocks

    wanted = list(range(configurations))
    return next(seed for seed in range(100_000)
                if [c for _, c in randomised_blocks(wanted, lambda c: 1, seed)] == wanted)


def mwbench_exe() -> str:
    exe = Path(os.sys.executable).parent / "mwbench"
    return str(exe) if exe.exists() else shutil.which("mwbench")


def run_spec(directory: Path, spec_text: str, *extra: str, env: dict | None = None,
             timeout: float = 300) -> tuple[subprocess.CompletedProcess, Path]:
    """`mwbench run` as a user runs it: `spec_text` (dedented) in DIRECTORY/spec.yaml, the
    run into DIRECTORY/m.db, `extra` arguments after; the finished process and the db."""
    spec = directory / "spec.yaml"
    spec.write_text(textwrap.dedent(spec_text))
    db = directory / "m.db"
    completed = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(db), *extra],
                               capture_output=True, text=True, timeout=timeout, env=env,
                               check=False)
    return completed, db


def write_spec(directory: Path, text: str) -> Path:
    """`text` (dedented) as DIRECTORY/spec.yaml."""
    path = directory / "spec.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def spec_refusal(path: Path) -> str:
    """What the spec reader says when it refuses the spec at `path` (it must)."""
    from mwbench.spec import SpecError, load_spec

    with pytest.raises(SpecError) as error:
        load_spec(path)
    return str(error.value)


def exported_cells(db: Path) -> list[dict]:
    """`mwbench export --format json` of the database's latest run."""
    out = subprocess.run([mwbench_exe(), "export", "--db", str(db), "--format", "json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["cells"]


# Factors of a stored cell that a test does not care about.
BASE_FACTORS = dict(experiment="e", driver="omniorb", transport="tcp", mode="remote",
                    operation="ping", payload_bytes=0, placement="same-cpu", idle_hold=True,
                    priority=0, servants=None, threads=None, subscribers=None,
                    subscriber_processes=None, options=None, background="none", assembly=None,
                    delivery=None, layer=None, orb=None, invocation=None, dispatch=None,
                    load=None, hosts=None, launch=1)
_CELL_KEYS = ("role", "error", "notes", "load_generator", "measurer_header", "server_header",
              "named_series")


def store_cells(path: Path, cells: list[dict], environment: dict | None = None,
                spec_text: str = "suite: known\n", hosts: dict | None = None) -> int:
    """A finished run of known cells; returns its id.

    Each cell is a dict of factor overrides plus, optionally: `role`; `error`
    (the cell failed); `samples_ns` (raw samples, from which every statistic
    is computed as a run would); or just `p50_us` (for tests that need the
    median alone); `wall_ns` (the measured loop, for the throughput); and
    `notes`, `load_generator`, `measurer_header`, `server_header`, `named_series` (a
    NamedSeries). `spec_text` is stored as the run's spec (the report reads
    `factorial:` from it); `hosts`, as the disclosure of the other hosts.
    """
    import numpy as np

    from mwbench.stats import summarize
    from mwbench.store import CellRecord, Store

    store = Store.create_or_open(path)
    run_id = store.begin_run("known", "known.yaml", spec_text, environment or {}, "0.1.0",
                             hosts)
    for cell in cells:
        factors = {**BASE_FACTORS, **{k: v for k, v in cell.items() if k in BASE_FACTORS}}
        extra = {k: cell[k] for k in _CELL_KEYS if k in cell}
        record = CellRecord(factors=factors, status="failed" if "error" in cell else "ok",
                            batch_size=1, **extra)
        if "samples_ns" in cell:
            samples = np.asarray(cell["samples_ns"], dtype=np.int64)
            record.samples_ns = samples
            record.stats = summarize(samples.astype(float), samples.size,
                                     cell.get("wall_ns", int(samples.sum()))).as_dict()
        elif "p50_us" in cell:
            record.stats = {"samples": 1, "p50_us": cell["p50_us"]}
        store.add_cell(run_id, record)
    store.end_run(run_id, "finished")
    store.close()
    return run_id


def stored_report(path: Path, cells: list[dict], **run: Any) -> tuple[Any, str]:
    """A finished run of known cells (store_cells, with its keywords) as the report reads
    it (report/data.py's Run) and its HTML page."""
    from mwbench.report import build_report
    from mwbench.report.data import load_run

    with stored_run(path, cells, **run) as (store, run_id):
        return load_run(store, run_id), build_report(store, [run_id])


def page_text(page: str) -> str:
    """The words of an HTML page (or a part of one), tags and runs of space made one space."""
    import html

    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@contextmanager
def stored_run(path: Path, cells: list[dict], **run: Any) -> Iterator[tuple[Any, int]]:
    """A finished run of known cells (store_cells, with its keywords), its store open for
    the block: (store, run id)."""
    from mwbench.store import Store

    run_id = store_cells(path, cells, **run)
    store = Store.open_existing(path)
    try:
        yield store, run_id
    finally:
        store.close()


def known_estimate_cells() -> list[dict]:
    """A run small enough to check the estimate on paper (medians in µs per call).

        simple                    20.0
        size     0 B: 21.0   1024 B: 22.0   4096 B: 25.0   65536 B: 80.0   (octets)
                 0 B: 99.0   4096 B: 99.0                                  (octets_out)
        servants 1: 20.5   10: 20.6   100: 21.0   1000: 22.5   100000: failed (cell 12)
        threads  1: 20.0   2: 38.0   4: 76.0                (connections=own)
                 1: 20.0   2: 30.0                          (connections=shared)
    """
    OWN, SHARED = {"connections": "own"}, {"connections": "shared"}  # noqa: N806
    cells = [{"experiment": "simple", "role": "simple", "p50_us": 20.0}]
    cells += [{"experiment": "marshalling", "role": "size", "operation": "octets",
               "payload_bytes": size, "p50_us": value}
              for size, value in ((0, 21.0), (1024, 22.0), (4096, 25.0), (65536, 80.0))]
    cells += [{"experiment": "marshalling", "role": "size", "operation": "octets_out",
               "payload_bytes": size, "p50_us": 99.0} for size in (0, 4096)]
    cells += [{"experiment": "dispatcher", "role": "servants", "servants": count,
               "p50_us": value}
              for count, value in ((1, 20.5), (10, 20.6), (100, 21.0), (1000, 22.5))]
    cells.append({"experiment": "dispatcher", "role": "servants", "servants": 100000,
                  "error": "server exited with status 1 before publishing its endpoint\n"
                           "mwbench-driver-omniorb: error: out of memory"})
    cells += [{"experiment": "parallelism", "role": "threads", "threads": count,
               "options": OWN, "p50_us": value} for count, value in ((1, 20.0), (2, 38.0),
                                                                     (4, 76.0))]
    cells += [{"experiment": "parallelism", "role": "threads", "threads": count,
               "options": SHARED, "p50_us": value} for count, value in ((1, 20.0), (2, 30.0))]
    cells.append({"experiment": "other", "p50_us": 500.0})  # no role: never an input
    return cells


def version_1_database(path):
    """A database exactly as mwbench 0.1.0 wrote it, with one run and one cell."""
    import sqlite3

    from mwbench.store_schema import V1_SCHEMA

    connection = sqlite3.connect(path)
    connection.executescript(V1_SCHEMA)
    connection.execute("INSERT INTO schema_info VALUES (1)")
    connection.execute("INSERT INTO runs VALUES (1, 'quick', 's.yaml', 'suite: quick', '{}', "
                       "'0.1.0', '2024-01-01T00:00:00+00:00', NULL, 'finished')")
    connection.execute(
        "INSERT INTO cells (run_id, experiment, driver, transport, mode, operation, "
        "payload_bytes, placement, idle_hold, priority, repetition, status, p50_us, notes, "
        "started_utc, duration_s) VALUES (1, 'ping', 'rawtcp', 'tcp', 'remote', 'roundtrip', "
        "0, 'same-cpu', 1, 0, 1, 'ok', 14.5, '[]', '2024-01-01T00:00:01+00:00', 1.0)")
    connection.commit()
    connection.close()
