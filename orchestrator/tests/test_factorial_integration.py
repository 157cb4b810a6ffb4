"""Factorial designs end to end: a real run, then the report's effects section.

The CCMPerf-style 2x2 on omniORB's server (thread per connection or a pool)
and the client's connections (one per thread or one shared), with two client
threads and two launches; and a 3x2 full factorial on the ccm driver, three
of CCMPerf's scenarios by the server's threading. Only the structure is checked: which effects
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
  - name: scenarios
    operation: roundtrip
    drivers: ccm
    transports: tcp
    options: {scenario: [obj-obj, obj-comp, comp-comp], threading: [per-connection, pool]}
    factorial: [options.scenario, options.threading]
"""


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    for driver in ("omniorb", "ccm"):
        if not driver_built(driver):
            pytest.fail(f"driver {driver} is not built: run `make test`, which builds it first")
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
    assert len(section["designs"]) == 2
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


def test_a_factor_of_three_levels_gives_a_full_factorial(measured):
    _, db = measured
    store = Store.open_existing(db)
    try:
        design = designs(load_run(store, 1))["designs"][1]
    finally:
        store.close()
    assert design["kind"] == "full" and design["missing"] == [] and design["launches"] == 2
    assert [t["name"] for t in design["terms"]] == [
        "options.scenario", "options.threading", "options.scenario × options.threading"]
    assert [t["df"] for t in design["terms"]] == [2, 1, 2]
    assert len(design["effects"]) == 3 + 2 + 6
    for row in design["effects"]:
        effect = row["metrics"]["median"]
        assert effect.interval[0] <= effect.estimate <= effect.interval[1]
    shares = [t["metrics"]["median"]["share"] for t in design["terms"]]
    assert sum(shares) + design["error"]["median"] == pytest.approx(1.0)
    # threading has two levels: its ratio at each scenario; scenario has three: none.
    assert [(r["factor"], r["at"]) for r in design["ratios"]] == [
        ("options.threading", f"options.scenario={scenario}")
        for scenario in ("obj-obj", "obj-comp", "comp-comp")]
    assert all(r["ratio"].launches == 2 for r in design["ratios"])


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
    for part in ("reading", "cells", "effects", "variation", "ratios", "interaction"):
        assert f'id="run1-factorial-scenarios-1-{part}"' in page


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
