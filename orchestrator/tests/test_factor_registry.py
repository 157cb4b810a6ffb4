"""Every factor of the registry (factors.py) reaches every place a reader meets it.

For each factor, a run of two configurations that differ in that factor
alone must show two different lines in the end-of-run summary, in `mwbench
compare` (and be matched as two configurations), in the report's first two
tables, and in every export; and docs/spec.md's factor table must be the one
generated from the registry. A factor added to factors.py is checked here
without a line of this file changing, but for the two example levels of a
free-form one (`EXAMPLES`), which the test asks for by name.
"""

import csv
import io
import json
import re
import typing

import numpy as np
import pytest
from click.testing import CliRunner
from rich.console import Console

from mwbench import factor_table
from mwbench.cli import main
from mwbench.comparison import compare
from mwbench.comparison.records import records
from mwbench.comparison.runs import describe_factors, load_run
from mwbench.export import FORMATS
from mwbench.export.hdr_tags import parse_tag
from mwbench.factors import FACTORS, NAMES, Factor
from mwbench.matrix import Cell, Matrix
from mwbench.report import build_report
from mwbench.store import CellRecord, Store
from mwbench.summary import print_summary

# Two levels of each factor whose level type does not list them (Literal, bool, int).
EXAMPLES = {"experiment": ("first", "second"), "driver": ("rawtcp", "omniorb"),
            "transport": ("tcp", "uds"), "operation": ("roundtrip", "ping"),
            "options": ({"threading": "pool"}, {"threading": "per-connection"}),
            "background": ("none", "cpu:1"), "hosts": ("host-1", "client=host-1 server=host-2"),
            "load": ("constant:1000", "poisson:1000"), "launch": (1, 2)}
BASE = {"experiment": "e", "driver": "rawtcp", "transport": "tcp", "mode": "remote",
        "operation": "roundtrip", "payload_bytes": 0, "placement": "same-cpu",
        "idle_hold": True, "background": "none", "launch": 1}
CONFIGURATION_FACTORS = [f for f in FACTORS if f.configuration]


def two_levels(factor: Factor) -> tuple:
    if factor.name in EXAMPLES:
        return EXAMPLES[factor.name]
    if factor.boolean:
        return (True, False)
    if typing.get_origin(factor.level) is typing.Literal:
        return typing.get_args(factor.level)[:2]
    if factor.level is int or typing.get_args(factor.level)[:1] == (int,):
        return (1, 2)
    pytest.fail(f"factor {factor.name}: add two example levels to EXAMPLES")


def levels_of(factor: Factor) -> list[dict]:
    defaults = {f.name: BASE.get(f.name) for f in FACTORS}
    return [{**defaults, factor.name: level} for level in two_levels(factor)]


def samples() -> np.ndarray:
    return np.random.default_rng(7).lognormal(np.log(20_000), 0.1, 500).astype(np.int64)


def stored_run(db, configurations: list[dict], launches: int | None = 2) -> int:
    """A run of the configurations, `launches` each (None: one, the launch of its levels)."""
    store = Store.create_or_open(db)
    run_id = store.begin_run("known", "known.yaml", "suite: known\n", {}, "0.1.0")
    for levels in configurations:
        for launch in range(1, launches + 1) if launches else [levels["launch"]]:
            store.add_cell(run_id, record({**levels, "launch": launch}))
    store.end_run(run_id, "finished")
    store.close()
    return run_id


def record(levels: dict) -> CellRecord:
    from mwbench.stats import summarize

    values = samples()
    return CellRecord(factors=levels, status="ok", batch_size=1, samples_ns=values,
                      idle_hold_held=levels["idle_hold"],
                      stats=summarize(values.astype(float), values.size,
                                      int(values.sum())).as_dict())


def table_lines(text: str) -> list[str]:
    """The data rows of a rich table, each row's wrapped lines joined cell by cell (a row
    starts where its first cell, the experiment, is not blank)."""
    rows: list[list[str]] = []
    for line in text.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
    return [" │ ".join(row) for row in rows]


@pytest.mark.parametrize("factor", CONFIGURATION_FACTORS, ids=lambda f: f.name)
def test_the_end_of_run_summary_shows_each_configuration_on_a_line_of_its_own(factor):
    configurations = levels_of(factor)
    matrix = Matrix(configurations=[Cell(levels=levels, warmup=0, samples=500, launches=1,
                                         batch=1, timeout_s=1.0) for levels in configurations])
    console = Console(width=500, record=True, file=io.StringIO())
    print_summary(console, [record(levels) for levels in configurations], matrix)
    rows = table_lines(console.export_text())
    assert len(rows) == 2 and rows[0] != rows[1], "\n".join(rows)


@pytest.mark.parametrize("factor", CONFIGURATION_FACTORS, ids=lambda f: f.name)
def test_compare_matches_and_shows_each_configuration_on_its_own(tmp_path, factor):
    db = tmp_path / "m.db"
    configurations = levels_of(factor)
    base, new = stored_run(db, configurations), stored_run(db, configurations)
    store = Store.open_existing(db)
    comparison = compare(load_run(store, base), load_run(store, new))
    store.close()
    assert len(comparison.compared) == 2
    assert [r[factor.name] for r in records(comparison)] == list(two_levels(factor))
    described = {describe_factors(row.factors) for row in comparison.rows}
    assert len(described) == 2, described
    result = CliRunner().invoke(main, ["compare", str(base), str(new), "--db", str(db)],
                                terminal_width=500)
    rows = table_lines(result.output)
    assert len(rows) == 2 and rows[0] != rows[1], result.output


@pytest.mark.parametrize("factor", CONFIGURATION_FACTORS, ids=lambda f: f.name)
def test_the_reports_first_tables_show_each_configuration_on_its_own(tmp_path, factor):
    db = tmp_path / "m.db"
    run_id = stored_run(db, levels_of(factor))
    store = Store.open_existing(db)
    html = build_report(store, [run_id])
    store.close()
    tables = re.findall(r'<table id="run\d+-(?:baseline|collocated)">(.*?)</table>', html, re.S)
    rows = [row for table in tables for row in re.findall(r"<tr><td>(.*?)</tr>", table, re.S)]
    assert len(rows) == 2 and rows[0] != rows[1], "\n".join(rows)


@pytest.mark.parametrize("factor", FACTORS, ids=lambda f: f.name)
def test_every_export_carries_the_factor(tmp_path, factor):
    db = tmp_path / "m.db"
    run_id = stored_run(db, levels_of(factor), launches=None)
    store = Store.open_existing(db)
    exported = {}
    for name, write in FORMATS.items():
        stream = io.StringIO()
        write(store, [run_id], stream)
        exported[name] = stream.getvalue()
    store.close()
    cells = json.loads(exported["json"])["cells"]
    assert len({json.dumps(cell[factor.name]) for cell in cells}) == 2
    for name in ("csv", "samples"):
        rows = list(csv.DictReader(io.StringIO(exported[name])))
        assert len({row[factor.name] for row in rows}) == 2, name
    tags = [line.split(",")[0].removeprefix("Tag=")
            for line in exported["hdr"].splitlines() if line.startswith("Tag=")]
    assert [parse_tag(tag)[factor.name] for tag in tags] == [cell[factor.name]
                                                            for cell in cells]
    if factor.configuration:
        configurations = json.loads(exported["configurations"])["configurations"]
        assert [c[factor.name] for c in configurations] == list(two_levels(factor))
        rows = list(csv.DictReader(io.StringIO(exported["configurations-csv"])))
        assert len({row[factor.name] for row in rows}) == 2


@pytest.mark.parametrize("factor", FACTORS, ids=lambda f: f.name)
def test_docs_factor_table_has_the_factor(factor):
    assert f"`{factor.name}`" in factor_table.table()
    assert factor.doc, f"factor {factor.name}: no doc for docs/spec.md"


def test_docs_factor_table_is_the_generated_one():
    text = factor_table.spec_doc().read_text()
    assert factor_table.replaced(text) == text, (
        "docs/spec.md's factor table differs from factors.py: run "
        "`python -m mwbench.factor_table --write`")


def test_readme_lists_every_export_key():
    from mwbench.export import EXPORT_KEYS
    from mwbench.paths import repo_root

    readme = (repo_root() / "README.md").read_text()
    listed = readme.split("prints one object per cell", 1)[1].split("Factors a cell", 1)[0]
    named = {name for span in re.findall(r"`([^`]*)`", listed)
             for name in re.findall(r"[a-z_0-9]+", span)}
    assert set(EXPORT_KEYS) - set(NAMES) <= named, set(EXPORT_KEYS) - set(NAMES) - named
    assert set(NAMES) <= set(EXPORT_KEYS)  # the factors: by their names in docs/spec.md


def test_ccmevents_configurations_that_differ_in_delivery_or_layer_are_told_apart(tmp_path):
    """Four ccmevents configurations (two deliveries, two layers) are four lines in compare,
    each with its own verdict: the one that slowed down in NEW is the only regression."""
    db = tmp_path / "m.db"
    ccmevents = {**{f.name: BASE.get(f.name) for f in FACTORS}, "driver": "ccmevents",
                 "operation": "fanout", "subscribers": 1, "subscriber_processes": "one"}
    four = [{**ccmevents, "delivery": delivery, "layer": layer}
            for delivery in ("direct", "channel") for layer in ("component", "object")]
    store = Store.create_or_open(db)
    runs = []
    for slowed in (None, ("channel", "object")):
        run_id = store.begin_run("known", "known.yaml", "suite: known\n", {}, "0.1.0")
        for levels in four:
            slow = 1.5 if (levels["delivery"], levels["layer"]) == slowed else 1.0
            for launch in range(1, 6):
                values = (samples() * slow * (1 + 0.001 * launch)).astype(np.int64)
                store.add_cell(run_id, CellRecord(factors={**levels, "launch": launch},
                                                  status="ok", batch_size=1,
                                                  samples_ns=values))
        store.end_run(run_id, "finished")
        runs.append(run_id)
    store.close()
    result = CliRunner().invoke(main, ["compare", *map(str, runs), "--db", str(db)],
                                terminal_width=500)
    rows = table_lines(result.output)
    assert len(rows) == 4 and len(set(rows)) == 4, result.output
    regressed = [row for row in rows if "regression" in row]
    assert len(regressed) == 1 and "channel delivery object layer" in regressed[0], rows
