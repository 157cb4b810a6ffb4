"""`mwbench report`: the HTML file, from real runs, and what it says about failures.

The browser test at the end loads the report in headless Chromium (Debian's
package, installed by `make setup`): no console message, every expected
figure present, and a screenshot kept in results/test-artifacts/ for a person
to look at.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CHROMIUM_FLAGS, PING_EXPERIMENT, REPO, run_spec
from mwbench.cli import main

SPEC = """\
suite: report-test
defaults: {warmup: 50, samples: 400, launches: 2}
experiments:
""" + PING_EXPERIMENT + """\
    placement: [same-cpu, unpinned]
  - name: octets
    operation: octets
    drivers: [rawtcp, omniorb]
    transports: [tcp]
    payload_bytes: [0, 1024, 16384]
  - name: broken
    operation: roundtrip
    drivers: rawtcp
    transports: tcp
    launches: 1
    options: {fault: exit}
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("report")
    _, db = run_spec(directory, SPEC)
    output = directory / "report.html"
    result = CliRunner().invoke(main, ["report", "--db", str(db), "-o", str(output)])
    assert result.exit_code == 0, result.output
    return output


def test_report_holds_disclosure_warnings_baseline_and_failures(report):
    html = report.read_text()
    for fact in ("machine", "kernel", "CPU governor", "cpuidle", "clocksource", "compiler",
                 "middleware", "mwbench"):
        assert f"<dt>{fact}</dt>" in html
    assert "libomniorb4-dev 4.2" in html and ", commit " in html
    assert "suite: report-test" in html  # the spec itself
    assert "cells ran unpinned" in html
    assert "1 of " in html and "cells failed" in html
    assert "server exited with status 3 before publishing its endpoint" in html
    assert 'id="run1-baseline"' in html
    assert html.count("<strong>What it shows:</strong>") == html.count("<figure")


def test_report_is_self_contained(report):
    html = report.read_text()
    assert not re.search(r"""<(script|link|img|iframe)\b[^>]*\b(src|href)=["']https?:""", html)
    assert "@import" not in html and "url(http" not in html


def test_expected_figures_are_present(report):
    html = report.read_text()
    for figure in ("run1-ping-box-remote", "run1-ping-box-collocated", "run1-ping-percentiles",
                   "run1-octets-box-remote", "run1-octets-sweep-payload_bytes-remote"):
        assert f'id="{figure}"' in html
    assert html.count("<svg") == html.count("<figure")


def test_a_run_whose_cells_all_failed_still_gets_a_report(tmp_path):
    _, db = run_spec(tmp_path, """\
        suite: all-broken
        defaults: {launches: 1, warmup: 10, samples: 100}
        experiments:
          - {name: broken, operation: roundtrip, drivers: rawtcp, transports: tcp,
             options: {fault: exit}}
        """)
    output = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--db", str(db), "-o", str(output)])
    assert result.exit_code == 0, result.output
    html = output.read_text()
    assert "Every cell of this run failed (1): there is nothing to plot." in html
    assert "<figure" not in html


@pytest.mark.parametrize("args, message", [
    (["--db", "absent.db"], "absent.db: no such database"),
])
def test_bad_input_is_a_clear_error(tmp_path, args, message):
    result = CliRunner().invoke(main, ["report", *args, "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert message in result.output


def test_unknown_run_is_a_clear_error(report, tmp_path):
    db = report.parent / "m.db"
    result = CliRunner().invoke(main, ["report", "--db", str(db), "--run", "42",
                                       "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert "no run with id 42 (runs: 1)" in result.output


def test_report_opens_in_a_real_browser(report, tmp_path):
    chromium = shutil.which("chromium")
    assert chromium, "chromium is not installed: `make setup` installs Debian's package"
    url = report.resolve().as_uri()
    loaded = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--log-level=0", "--dump-dom", url],
        capture_output=True, text=True, timeout=120, check=False)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    console = [line for line in loaded.stderr.splitlines() if ":CONSOLE" in line]
    assert console == [], "the page wrote to the console:\n" + "\n".join(console)
    dom = loaded.stdout
    for figure in ("run1-ping-box-remote", "run1-ping-percentiles",
                   "run1-octets-sweep-payload_bytes-remote"):
        assert re.search(rf'<figure id="{figure}"[^>]*>.*?<svg', dom, re.S), figure

    artifacts = REPO / "results" / "test-artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    screenshot = artifacts / "report.png"
    screenshot.unlink(missing_ok=True)
    shot = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile2'}",
         "--window-size=1200,4000", f"--screenshot={screenshot}", url],
        capture_output=True, text=True, timeout=120, check=False)
    assert shot.returncode == 0, shot.stderr[-2000:]
    assert screenshot.stat().st_size > 50_000  # a page with figures, not a blank one


def test_figures_are_medians_over_launches_with_intervals_and_the_order_is_disclosed(tmp_path):
    # Written into a store: rawtcp and omniorb in five launches, omniorb as fast as the raw
    # socket within each block; zmq once.
    import numpy as np

    from mwbench.store import CellRecord, Store

    db = tmp_path / "m.db"
    store = Store.create_or_open(db)
    run_id = store.begin_run("launches", "launches.yaml", "suite: launches\n",
                             {"machine": {"cpu_count": 2}}, "0.1.0", seed=4242)
    rng = np.random.default_rng(3)
    base = dict(experiment="ping", transport="tcp", mode="remote", operation="roundtrip",
                payload_bytes=0, placement="same-cpu", idle_hold=True, priority=0)
    for launch in range(1, 6):
        level = float(np.exp(rng.normal(0, 0.2)))  # the block's level, shared by both
        for position, driver in enumerate(("rawtcp", "omniorb")):
            samples = rng.lognormal(np.log(10_000 * level), 0.05, 400).astype(np.int64)
            store.add_cell(run_id, CellRecord(
                factors={**base, "driver": driver, "launch": launch}, status="ok",
                batch_size=1, samples_ns=samples, idle_hold_held=True, position=position))
    store.add_cell(run_id, CellRecord(
        factors={**base, "driver": "zmq", "launch": 1}, status="ok", batch_size=1,
        samples_ns=np.full(400, 30_000, dtype=np.int64), idle_hold_held=True, position=2))
    store.end_run(run_id, "finished")
    store.close()
    output = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--db", str(db), "-o", str(output)])
    assert result.exit_code == 0, result.output
    html = output.read_text()
    table = re.sub(r"<[^>]+>", " ", html[html.index('id="run1-baseline"'):])
    table = " ".join(table[:table.index("What it shows")].split())
    assert re.search(r"omniorb tcp roundtrip 0 .*?1\.0\d \[0\.9\d–1\.0\d\] "
                     r"indistinguishable from the raw socket", table)
    # Against the raw socket's first launch alone: a ratio without an interval.
    assert re.search(r"zmq tcp roundtrip 0 .*?\d\.\d\d \(1 launch\)", table)
    assert "randomised blocks" in html and "--seed 4242" in html
    assert "1 configuration(s) were measured by one launch" in html
    assert "a launch's median" in html  # the legend of the dots (SVG text), one per launch
