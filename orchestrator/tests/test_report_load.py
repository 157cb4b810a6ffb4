"""The report's reading of open-loop load, on a stored run of known response times.

Two drivers swept over constant rates, two launches each, stored directly
(conftest.store_cells) with result headers holding the `load` object as
drivers write it; the experiment gives `bound_us: 100` (at p99, the default). Times in µs:

    rate        1000   2000   4000   8000
    rawtcp p99    30     35     50    400   the knee at 4000 (400 > 2 x 30), the bound too
    omniorb p99   80     90    150    170   the knee at 4000 (achieved 7,000 of 8,000/s),
                                            the bound at 2000 (150 > 100)

Every p50 is 10; a closed-loop rawtcp cell beside them is in the summary but in no
line, and so is the experiment `stall` (one open-loop rate beside a closed loop).
"""

import json

import numpy as np
import pytest
from test_cli_saturate import knee, saturate

from conftest import page_text, spec_refusal, stored_report, write_spec
from mwbench import runner
from mwbench.report import build_report
from mwbench.report.data import load_run
from mwbench.report.factors import offered_load
from mwbench.response_bound import Bound
from mwbench.store import Store
from open_loop_drivers import described  # noqa: F401 - the fixture, by name

RATES = (1000, 2000, 4000, 8000)
P99 = {"rawtcp": (30, 35, 50, 400), "omniorb": (80, 90, 150, 170)}
SPEC = """\
suite: load
experiments:
  - name: load
    operation: ping
    drivers: [rawtcp, omniorb]
    load: ["constant:1000", "constant:2000", "constant:4000", "constant:8000"]
    bound_us: 100
"""


def tail(median_us: float, p99_us: float) -> np.ndarray:
    """1,000 samples (ns): p50 `median_us`, the slowest 2% at `p99_us` (so p99 and p99.9)."""
    return np.array([median_us * 1000] * 980 + [p99_us * 1000] * 20, dtype=np.int64)


def header(rate: float, achieved: float, late: int = 2) -> dict:
    return {"load": {"kind": "constant", "rate_per_s": rate, "seed": 7, "calls": 1000,
                     "offered_per_s": rate, "achieved_per_s": achieved, "late_sends": late,
                     "late_threshold_ns": int(1e9 / rate), "max_send_lag_ns": 5000,
                     "outstanding_at_end": 1, "lost": 0}}


def load_cells() -> list[dict]:
    cells = []
    for driver, p99s in P99.items():
        for rate, p99 in zip(RATES, p99s, strict=True):
            achieved = 7000 if (driver, rate) == ("omniorb", 8000) else rate
            cells += [{"experiment": "load", "driver": driver, "load": f"constant:{rate}",
                       "launch": launch, "samples_ns": tail(10, p99),
                       "measurer_header": header(rate, achieved)} for launch in (1, 2)]
    cells += [{"experiment": "load", "driver": "rawtcp", "launch": launch,
               "samples_ns": tail(10, 12)} for launch in (1, 2)]
    # The demonstration of coordinated omission: one open-loop rate, no sweep.
    cells += [{"experiment": "stall", "driver": "rawtcp", "load": level, "launch": 1,
               "samples_ns": tail(10, 12 if level is None else 20_000)}
              for level in (None, "constant:20000")]
    return cells


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    """The run as the report reads it, and its page."""
    return stored_report(tmp_path_factory.mktemp("load") / "m.db", load_cells(), spec_text=SPEC)


def test_a_line_per_driver_with_its_knee_and_the_rule_that_ended_it(known):
    run, _ = known
    lines = {line["driver"]: line for line in offered_load.series(run)}
    assert set(lines) == {"rawtcp", "omniorb"}  # the closed-loop cells are in no line
    assert {line["experiment"] for line in lines.values()} == {"load"}
    rawtcp, omniorb = lines["rawtcp"], lines["omniorb"]
    assert [p["rate"] for p in rawtcp["points"]] == list(RATES)
    assert [p["p99"] for p in rawtcp["points"]] == pytest.approx(P99["rawtcp"])
    assert [p["p50"] for p in rawtcp["points"]] == pytest.approx([10] * 4)
    assert (rawtcp["knee"], rawtcp["knee_rule"]) == (2, "p99")
    assert (omniorb["knee"], omniorb["knee_rule"]) == (2, "achieved")
    assert (omniorb["sustainable"], omniorb["sustainable_rule"]) == (1, "p99")
    assert omniorb["points"][3]["late"] == 4 and omniorb["points"][3]["lost"] == 0


def test_the_sustainable_rate_at_the_suites_bound(known):
    _, page = known
    table = page_text(page[page.index('id="run1-load-sustainable"'):])
    assert ("load rawtcp constant p99 ≤ 100 µs 4,000 50.0 at 8,000/s the p99 was 400.0 µs, "
            "above the bound of 100 µs") in table
    assert ("load omniorb constant p99 ≤ 100 µs 2,000 90.0 at 4,000/s the p99 was 150.0 µs, "
            "above the bound of 100 µs") in table
    assert 'id="run1-load-rates"' in page


@pytest.mark.parametrize(("keys", "rawtcp", "omniorb"), [
    ("p99_bound_us: 100",  # the old spelling: a bound at p99
     "p99 ≤ 100 µs 4,000 50.0 at 8,000/s the p99 was 400.0 µs, above the bound of 100 µs",
     "p99 ≤ 100 µs 2,000 90.0 at 4,000/s the p99 was 150.0 µs, above the bound of 100 µs"),
    ("bound_us: 120\n    bound_percentile: 99.9",
     "p99.9 ≤ 120 µs 4,000 50.0 at 8,000/s the p99.9 was 400.0 µs, above the bound of 120",
     "p99.9 ≤ 120 µs 2,000 90.0 at 4,000/s the p99.9 was 150.0 µs, above the bound of 120"),
    ("bound_us: 9\n    bound_percentile: 90",  # every p90 is the median, 10 µs
     "p90 ≤ 9 µs below the lowest rate – at 1,000/s the p90 was 10.0 µs, above the bound",
     "p90 ≤ 9 µs below the lowest rate – at 1,000/s the p90 was 10.0 µs, above the bound"),
    ("bound_us: 11\n    bound_percentile: 50",
     "p50 ≤ 11 µs 8,000 10.0 every rate measured held",
     "p50 ≤ 11 µs 4,000 10.0 at 8,000/s the calls answered came at 7,000/s"),
])
def test_the_sustainable_rate_at_the_percentile_the_experiment_budgets(tmp_path, keys,
                                                                       rawtcp, omniorb):
    _, page = stored_report(tmp_path / "m.db", load_cells(),
                            spec_text=SPEC.replace("bound_us: 100", keys))
    table = page_text(page[page.index('id="run1-load-sustainable"'):])
    assert f"load rawtcp constant {rawtcp}" in table
    assert f"load omniorb constant {omniorb}" in table


def test_a_bound_at_a_percentile_the_figure_lacks_is_drawn_with_it():
    labels = [handle.get_label() for handle in offered_load._key([Bound(100.0, 90.0)])]
    assert labels == ["p50", "p99", "p99.9", "p90", "knee", "p90 bound"]
    assert [h.get_label() for h in offered_load._key([Bound(5.0), Bound(9.0)])][-2:] == \
        ["knee", "p99 bound"]


def test_without_a_bound_the_knee_is_the_sustainable_rate(tmp_path):
    _, page = stored_report(tmp_path / "m.db", load_cells())  # the spec gives no bound
    table = page_text(page)
    assert ("load omniorb constant the knee (p99 ≤ 2 × its value at the lowest rate) "
            "4,000 150.0 at 8,000/s the calls answered came at 7,000/s, below 95% of "
            "the 8,000/s offered") in table


def test_the_first_table_gives_offered_and_achieved_rates_and_the_misses(known):
    _, page = known
    measured = page[page.index('class="measured"'):]
    measured = page_text(measured[:measured.index("</table>")])
    assert "offered calls/s achieved calls/s late sends lost" in measured
    assert "omniorb constant:8000 load 2 2000 1 " in measured
    assert "8,000 7,000 4 of 2,000 0 of 2,000" in measured
    assert "rawtcp 2 2000 1" in measured and "closed loop" in measured


def test_a_sweep_whose_lowest_rate_fails_already_has_no_sustainable_rate():
    points = [{"rate": r, "offered": r, "achieved": r / 2, "p99": 10.0} for r in (10, 20)]
    assert offered_load._last_held(points, lambda p: False) == (None, "achieved")
    rows = offered_load.sustainable_rows([{
        "experiment": "e", "series": "s", "configuration": "{}", "points": points,
        "bound": None, "knee": None, "knee_rule": "achieved", "sustainable": None,
        "sustainable_rule": "achieved"}])
    assert rows[0]["rate"] is None
    assert rows[0]["reading"].startswith("at 10/s the calls answered came at 5/s")


@pytest.mark.parametrize("bound", ["0", "-5", ".inf", "fast"])
def test_a_bound_that_is_not_a_positive_number_is_refused_naming_its_line(tmp_path, bound):
    path = write_spec(tmp_path, SPEC.replace("bound_us: 100", f"bound_us: {bound}"))
    assert "spec.yaml:7: experiments[0].bound_us" in spec_refusal(path)
    old = write_spec(tmp_path, SPEC.replace("bound_us: 100", f"p99_bound_us: {bound}"))
    assert "spec.yaml:7: experiments[0].p99_bound_us" in spec_refusal(old)


@pytest.mark.parametrize(("keys", "message"), [
    ("bound_us: 100\n    bound_percentile: 95", "spec.yaml:8: experiments[0].bound_percentile: "
     "95 is not a percentile a bound is judged at: one of 50, 90, 99, 99.9 (experiment "
     "'load')"),
    ("bound_us: 100\n    p99_bound_us: 100", "spec.yaml:3: experiments[0]: experiment 'load': "
     "set bound_us only: p99_bound_us is its old name (a bound at p99)"),
    ("p99_bound_us: 100\n    bound_percentile: 90", "spec.yaml:3: experiments[0]: experiment "
     "'load': p99_bound_us is a bound at p99, not at bound_percentile 90"),
    ("bound_percentile: 90", "spec.yaml:3: experiments[0]: experiment 'load': "
     "bound_percentile without bound_us"),
])
def test_a_bound_given_twice_or_at_another_percentile_is_refused(tmp_path, keys, message):
    path = write_spec(tmp_path, SPEC.replace("bound_us: 100", keys))
    assert spec_refusal(path).startswith(f"{tmp_path / message}")


def test_an_open_loop_is_read_against_the_raw_socket_at_the_same_rate(known):
    _, page = known
    table = page[page.index('id="run1-baseline"'):]
    rows = [page_text(row) for row in table[:table.index("</table>")].split("<tr>")[2:]]
    at_8000 = next(row for row in rows if "omniorb" in row and "constant:8000" in row)
    assert " 0.42 " in at_8000  # p99: 170 µs over rawtcp's 400 at 8,000/s, not its 30 at 1,000


@pytest.mark.parametrize(("options", "bound"), [
    (["--p99-bound-us", "100"], Bound(100.0)),
    (["--bound-us", "100", "--percentile", "90"], Bound(100.0, 90.0))])
@pytest.mark.usefixtures("described")
def test_a_saturate_run_gives_its_searches_as_the_sustainable_rates(tmp_path, monkeypatch,
                                                                    options, bound):
    """`mwbench saturate` with cells whose knee is known (test_cli_saturate.py): its
    probes are the lines, its outcomes the table's rows, its bound the grey line."""
    monkeypatch.setattr(runner, "run_cell", knee)
    result = saturate(tmp_path, "--experiment", "sweep", *options, "--low", "500")
    assert result.exit_code == 0, result.output
    store = Store.open_existing(tmp_path / "m.db")
    try:
        (run,) = store.runs()
        searches = {json.loads(row["configuration"])["driver"]: row
                    for row in store.saturations(run["id"])}
        lines = offered_load.series(load_run(store, run["id"]))
        table = page_text(build_report(store, [run["id"]]))
    finally:
        store.close()
    assert {line["driver"]: line["bound"] for line in lines} == {"rawtcp": bound,
                                                                  "omniorb": bound}
    for driver, search in searches.items():
        assert (f"sweep {driver} constant {bound.name} < 100 µs (mwbench saturate, "
                f"{len(search['probes'])} rates probed) {search['max_rate_per_s']:,g} 40.0 "
                f"{search['reason']}") in table


def test_the_knee_is_judged_at_the_bounds_percentile(tmp_path):
    # Every p90 here is the median, 10 µs, at every rate: judged at p90, rawtcp's line
    # has no knee before its last rate, though its p99 grows eightfold.
    run, page = stored_report(tmp_path / "m.db", load_cells(), spec_text=SPEC.replace(
        "bound_us: 100", "bound_us: 500\n    bound_percentile: 90"))
    lines = {line["driver"]: line for line in offered_load.series(run)}
    assert (lines["rawtcp"]["knee"], lines["rawtcp"]["knee_rule"]) == (3, "")
    assert lines["rawtcp"]["knee_at"] == "p90"
    assert (lines["omniorb"]["knee"], lines["omniorb"]["knee_rule"]) == (2, "achieved")
    assert offered_load.knee_rule_text("p90") == "knee: then p90 > 2 × the lowest rate's"
