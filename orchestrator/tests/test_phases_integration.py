"""Named series end to end: `mwbench run`, the store, `mwbench report` and the samples export.

The stand-in driver (standin_driver.py) writes the phases of an assembly as
the deploy driver does, from known numbers: sample i takes i ns longer in
every phase, a dynamic assembly three times a static one. The run crosses
the `assembly` factor, which reaches the driver as `--option assembly=...`
and comes back in the result header, and the report must give the phases
table, the stacked figure of `total`'s parts and the footprint.
"""

import csv
import io
import re

import pytest
import standin_driver
from click.testing import CliRunner

from conftest import run_spec, standin_environment
from mwbench.cli import main
from mwbench.store import Store

SAMPLES = 40
SPEC = f"""\
suite: phases
defaults: {{warmup: 1, samples: {SAMPLES}, placement: unpinned, idle_hold: false,
            launches: 2}}
experiments:
  - name: deploy
    operation: roundtrip
    drivers: standin
    modes: collocated
    assembly: [static, dynamic]
    options: {{named: [{{kind}}]}}
"""


def run(standin_root, tmp_path, kind: str = "phases"):
    proc, db = run_spec(tmp_path, SPEC.replace("{kind}", kind),
                        env=standin_environment(standin_root, tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return db


def in_process(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def stored(standin_root, tmp_path):
    return run(standin_root, tmp_path)


def test_the_phases_reach_the_store_with_the_assembly_factor(stored):
    store = Store.open_existing(stored)
    cells = store.cells(store.latest_run_id(), spec_order=True)
    assert [(c["assembly"], c["launch"], c["status"]) for c in cells] == [
        ("static", 1, "ok"), ("static", 2, "ok"), ("dynamic", 1, "ok"), ("dynamic", 2, "ok")]
    # The driver was given the factor as its option, and echoed it.
    assert cells[0]["measurer_header"]["options"] == {"named": "phases", "assembly": "static"}
    assert cells[0]["options"] == {"named": "phases"}
    series = store.named_series(cells[2]["id"])
    assert list(series) == list(standin_driver.PHASES)
    assert series.part_of["library_load"] == "home_creation"
    assert series["plan_parsing"].tolist() == [300_000 + i for i in range(SAMPLES)]
    assert cells[2]["samples"] == SAMPLES  # the statistics are of the samples alone
    store.close()


def test_the_report_has_the_phases_table_figure_and_footprint(stored, tmp_path):
    output = tmp_path / "report.html"
    in_process(["report", "--db", str(stored), "-o", str(output)])
    html = output.read_text()
    section = html[html.index('id="run1-deploy-phases"'):]
    tables = re.findall(r'<table class="phase-table">(.*?)</table>', section, re.S)
    captions = [re.search(r"<strong>(.*?)</strong><br><small>(.*?)</small>", t, re.S).groups()
                for t in tables]
    assert [(label, " ".join(small.split())) for label, small in captions] == [
        ("static assembly", f"{2 * SAMPLES} samples, 2 launches; plan standin"),
        ("dynamic assembly", f"{2 * SAMPLES} samples, 2 launches; plan standin")]
    # One unit per table, the one its largest value reads best in: a static total under
    # a millisecond, a dynamic one over.
    assert [re.findall(r'<th class="num">\w+ (\S+)</th>', t) for t in tables] == [
        ["µs"] * 3, ["ms"] * 3]
    # Segments under their whole, roots in file order: total before teardown.
    for table in tables:
        rows = re.findall(r'<tr class="depth-(\d)"><td[^>]*>(\w+)</td>', table)
        assert rows == [("0", "total"), ("1", "plan_parsing"), ("1", "home_creation"),
                        ("2", "library_load"), ("1", "registration"),
                        ("2", "registration_publish"), ("0", "teardown")]
    # plan_parsing: static 100,000 + i ns, dynamic 300,000 + i ns, i in 0..39, pooled.
    parsing = [re.search(r">plan_parsing<.*?</tr>", t, re.S).group(0) for t in tables]
    assert [re.findall(r'class="num">([^<]+)<', row) for row in parsing] == [
        ["100", "100", "100"], ["0.300", "0.300", "0.300"]]
    assert 'id="run1-deploy-phases-total"' in section
    assert "the time no part accounts for" in section
    footprint = section[section.index('id="run1-deploy-phases-footprint"'):]
    assert "component host (mwccm-component-server)" in footprint
    assert "5.0 MiB" in footprint and "8.8 MiB" in footprint
    assert html.count("<strong>What it shows:</strong>") == html.count("<figure")


def test_parts_that_exceed_their_whole_are_said(standin_root, tmp_path):
    db = run(standin_root, tmp_path, "overlapping")
    output = tmp_path / "report.html"
    in_process(["report", "--db", str(db), "-o", str(output)])
    html = output.read_text()
    assert "static assembly: the parts of total add up to" in html
    assert "each count whole" in html


def test_the_samples_export_has_a_column_per_series(stored):
    text = in_process(["export", "--db", str(stored), "--format", "samples"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4 * SAMPLES
    columns = [f"series_{name}_ns" for name in standin_driver.PHASES]
    assert list(rows[0])[-len(columns):] == columns
    first_dynamic = next(row for row in rows if row["assembly"] == "dynamic")
    assert first_dynamic["series_plan_parsing_ns"] == "300000"
    assert int(first_dynamic["value_ns"]) == (int(first_dynamic["series_total_ns"])
                                             + int(first_dynamic["series_teardown_ns"]))
