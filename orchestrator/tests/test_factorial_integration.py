"""A factorial design end to end: a real omniORB run, then the report's effects section.

The CCMPerf-style 2x2 on omniORB's server (thread per connection or a pool)
and the client's connections (one per thread or one shared), with two client
threads and two launches. Only the structure is checked: which effects
exist and that each has an interval, never how large a measured time is.
"""

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from conftest import CHROMIUM_FLAGS, driver_built, run_spec
from mwbench.cli import main
from mwbench.report.data import load_run
from mwbench.report.factors.factorial import designs
from mwbench.store import Store

SPEC = """\
suite: factorial-test
defaults: {warmup: 50, samples: 300, launches: 2}
experiments:
  - name: threading
    operation: ping
    drivers: omniorb
    transports: tcp
    threads: 2
    options: {threading: [per-connection, pool], connections: [own, shared]}
    factorial: [options.threading, options.connections]
"""


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    if not driver_built("omniorb"):
        pytest.fail("driver omniorb is not built: run `make test`, which builds it first")
    directory = tmp_path_factory.mktemp("factorial")
    completed, db = run_spec(directory, SPEC)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return directory, db


def test_the_run_yields_one_complete_design_with_every_effect(measured):
    _, db = measured
    store = Store.open_existing(db)
    try:
        section = designs(load_run(store, 1))
    finally:
        store.close()
    assert len(section["designs"]) == 1
    design = section["designs"][0]
    assert design["missing"] == [] and design["launches"] == 2
    assert [c["levels"] for c in design["cells"]] == [
        ["per-connection", "own"], ["pool", "own"], ["per-connection", "shared"],
        ["pool", "shared"]]
    assert [row["name"] for row in design["effects"]] == [
        "options.threading", "options.connections", "options.threading × options.connections"]
    for row in design["effects"]:
        for metric in ("median", "throughput", "jitter", "tail"):
            effect = row["metrics"][metric]
            low, high = effect.interval
            assert low <= effect.estimate <= high
    shares = [row["metrics"]["median"].share for row in design["effects"]]
    assert sum(shares) + design["error"]["median"] == pytest.approx(1.0)
    assert design["sentence"].startswith("Median time per call: ")


def test_the_report_has_the_section_tables_and_interaction_plot(measured):
    directory, db = measured
    output = directory / "report.html"
    result = CliRunner().invoke(main, ["report", "--db", str(db), "-o", str(output)])
    assert result.exit_code == 0, result.output
    page = output.read_text()
    assert 'id="run1-factorial"' in page
    for part in ("reading", "cells", "effects", "interaction"):
        assert f'id="run1-factorial-threading-0-{part}"' in page
    effects = re.search(r'<table id="run1-factorial-threading-0-effects">(.*?)</table>', page,
                        re.S).group(1)
    assert effects.count('<tr class="main">') == 2
    assert effects.count('<tr class="interaction">') == 1
    assert "options.threading × options.connections" in effects


def test_the_section_opens_in_a_real_browser_without_console_messages(measured, tmp_path):
    directory, db = measured
    output = directory / "browser.html"
    assert CliRunner().invoke(main, ["report", "--db", str(db), "-o", str(output)]).exit_code == 0
    chromium = shutil.which("chromium")
    assert chromium, "chromium is not installed: `make setup` installs Debian's package"
    loaded = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--log-level=0", "--dump-dom", output.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    console = [line for line in loaded.stderr.splitlines() if ":CONSOLE" in line]
    assert console == [], "the page wrote to the console:\n" + "\n".join(console)
    assert re.search(r'<figure id="run1-factorial-threading-0-interaction"[^>]*>.*?<svg',
                     loaded.stdout, re.S)
