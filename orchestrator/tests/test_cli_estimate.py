"""`mwbench estimate`: the answer names its cells; a missing input is exit 2 with the reason.

The values are those of conftest.known_estimate_cells, computed by hand in test_estimate.py.
"""

import json

import pytest
from click.testing import CliRunner

from conftest import known_estimate_cells, store_cells
from mwbench.cli.estimate import command


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "m.db"
    store_cells(path, known_estimate_cells())
    return path


def invoke(db, *args):
    return CliRunner().invoke(command, ["--db", str(db), "--run", "1", *args])


def test_prints_the_estimate_the_formula_and_every_input_cell(db):
    result = invoke(db, "--payload-bytes", "4096", "--servants", "100", "--threads", "2",
                    "--operation", "octets", "--option", "connections=own")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "run 1, omniorb remote tcp same-cpu: 4096 B, 100 servants, 2 threads"
    assert lines[1] == "estimated time per call: 46.550 µs (median, per thread)"
    assert "(20.000 + 25.000 - 21.000 + 21.000 - 20.500) * 38.000 / 20.000 = 46.550" in lines[2]
    assert "  simple               20.000  experiment simple, cell 1" in lines
    assert "  size(4096)           25.000  experiment marshalling, cell 4" in lines
    assert "  servants(100)        21.000  experiment dispatcher, cell 10" in lines


def test_json_lists_terms_with_their_cells(db):
    result = invoke(db, "--payload-bytes", "2048", "--operation", "octets", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["estimate_us"] == pytest.approx(22.0)
    assert record["driver"] == "omniorb" and record["run_id"] == 1
    size = next(t for t in record["terms"] if t["term"] == "size(2048)")
    assert size["cell_ids"] == [3, 4]
    assert size["note"] == "interpolated linearly between 1024 B and 4096 B"


@pytest.mark.parametrize("args, message", [
    (["--servants", "50"], "has no cell with servants 50; measured: 1, 10, 100, 1000"),
    (["--threads", "2"], "choose with --operation or --option KEY=VALUE"),
    (["--option", "connections"], "'connections' is not KEY=VALUE"),
    (["--run", "9"], "no run with id 9 (runs: 1)"),
])
def test_an_estimate_that_cannot_be_made_is_exit_2_with_the_reason(db, args, message):
    result = invoke(db, *args)
    assert result.exit_code == 2
    assert message in result.output


def test_a_missing_database_is_exit_2(tmp_path):
    result = CliRunner().invoke(command, ["--db", str(tmp_path / "absent.db")])
    assert result.exit_code == 2
    assert "absent.db: no such database" in result.output


def test_help_shows_the_formula_and_an_example():
    result = CliRunner().invoke(command, ["--help"])
    assert result.exit_code == 0
    assert "servants(n) - servants(1)" in result.output
    assert "mwbench estimate --payload-bytes 4096" in result.output
