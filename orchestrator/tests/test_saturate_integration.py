"""Open loops end to end on the real rawtcp driver, at low rates: `mwbench run` passes the
load and its seed to the client alone and stores the header's figures, and `mwbench
saturate` probes, stores and reports a search. No figure of the machine's speed is
asserted: only what the run must have done, whatever its timing."""

import subprocess

import pytest

from conftest import mwbench_exe, run_spec
from mwbench.drivers import describe
from mwbench.factors import NAMES
from mwbench.open_load import load_figures, load_seed
from mwbench.store import Store

OPEN_RAWTCP = """\
suite: open
experiments:
  - name: rpc
    drivers: [rawtcp]
    operation: roundtrip
    transports: tcp
    placement: unpinned
    warmup: 10
    samples: 100
    launches: 2
    load: [closed, "poisson:500"]
"""

pytestmark = pytest.mark.skipif(
    not describe("rawtcp").available or "roundtrip" not in describe("rawtcp").open_loop,
    reason="needs a rawtcp driver with an open loop (open_loop in its --describe)")


def test_an_open_loop_cell_runs_with_its_seed_and_keeps_its_figures(tmp_path):
    done, db = run_spec(tmp_path, OPEN_RAWTCP)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "offered/s" in done.stdout and "achieved/s" in done.stdout
    store = Store.open_existing(db)
    cells = store.cells(store.latest_run_id())
    store.close()
    assert sorted(cell["load"] for cell in cells) == ["closed", "closed", "poisson:500",
                                                      "poisson:500"]
    for cell in cells:
        figures = load_figures(cell["measurer_header"])
        if cell["load"] == "closed":
            assert figures is None
            continue
        assert figures.kind == "poisson" and figures.rate_per_s == 500.0
        assert figures.calls == 100 and figures.lost == 0
        assert cell["samples"] == 100


def test_the_seed_of_a_launch_is_the_one_derived_from_its_levels(tmp_path):
    done, db = run_spec(tmp_path, OPEN_RAWTCP.replace('[closed, "poisson:500"]',
                                                      '"poisson:500"'))
    assert done.returncode == 0, done.stdout + done.stderr
    store = Store.open_existing(db)
    cells = store.cells(store.latest_run_id())
    store.close()
    seeds = []
    for cell in cells:
        levels = {name: cell[name] for name in NAMES}
        seeds.append(load_figures(cell["measurer_header"]).seed)
        assert seeds[-1] == load_seed(levels)
    assert len(set(seeds)) == 2  # one schedule per launch


def saturate(tmp_path, *bound: str) -> subprocess.CompletedProcess:
    spec = tmp_path / "spec.yaml"
    spec.write_text(OPEN_RAWTCP.replace('[closed, "poisson:500"]', '"constant:500"'))
    return subprocess.run([mwbench_exe(), "saturate", str(spec), "--experiment", "rpc",
                           *bound, "--low", "200", "--high", "800", "--probe-seconds", "0.05",
                           "--db", str(tmp_path / "m.db")],
                          capture_output=True, text=True, timeout=600, check=False)


def test_saturate_probes_real_launches_and_stores_the_search(tmp_path):
    # A bound of a minute is never reached on loopback; a nanosecond always is.
    generous = saturate(tmp_path, "--p99-bound-us", "60000000")
    tight = saturate(tmp_path, "--bound-us", "0.001", "--percentile", "50")
    for done in (generous, tight):
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Maximum sustainable constant rate" in done.stdout
    store = Store.open_existing(tmp_path / "m.db")
    first, second = (run["id"] for run in store.runs())
    (found,) = store.saturations(first)
    (none,) = store.saturations(second)
    assert none["max_rate_per_s"] is None and len(none["probes"]) == 1
    assert none["reason"].startswith("not even 200/s is sustained: p50 ")
    assert (found["percentile"], none["percentile"]) == (99.0, 50.0)
    assert "p50_us" in none["probes"][0] and "p99_us" in found["probes"][0]
    rates = [probe["rate_per_s"] for probe in found["probes"]]
    assert rates[0] == 200.0 and all(200.0 <= rate <= 800.0 for rate in rates)
    assert len(set(rates)) == len(rates)
    sustained = [p["rate_per_s"] for p in found["probes"] if p["sustained"]]
    assert found["max_rate_per_s"] in sustained or found["max_rate_per_s"] is None
    for run_id, searched in ((first, found), (second, none)):
        cells = store.cells(run_id)
        assert len(cells) == 2 * len(searched["probes"])  # two launches a probe
        assert {cell["load"] for cell in cells} == {
            f"constant:{probe['rate_per_s']:g}" for probe in searched["probes"]}
        assert all(load_figures(cell["measurer_header"]).kind == "constant"
                   for cell in cells if cell["status"] == "ok")
    store.close()
