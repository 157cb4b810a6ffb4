"""The report fits its page: a store of many configurations, deployment phases and an
interoperability matrix among them, loaded in headless Chromium at 1,100 and 1,400 px, has
no horizontal overflow.

The page is measured by the browser itself. A copy of the report gets a short script
that, once the page is laid out, writes into the DOM the document's width, the viewport's
and every table, figure or drawing wider than its container; `--dump-dom` prints that
DOM. This needs nothing but Debian's chromium (no DevTools client in Python), and the
product's report carries no test hook: only the test's copy has the script.
"""

import itertools
import re
import shutil
import subprocess

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import CHROMIUM_FLAGS, REPO, store_cells
from mwbench.cli import main
from mwbench.named_series import NamedSeries
from mwbench.store import Store

DRIVERS = ("rawtcp", "omniorb", "zmq", "grpc", "fastdds", "cyclonedds", "iceoryx", "ccm")
PAYLOADS = (0, 64, 1024, 16384, 65536)
PLANS = ("basic_sp_one_process", "basic_sp_two_processes", "basic_sp_four_processes_two_nodes",
         "scale_10", "scale_100", "scale_1000")
PHASES = {"plan_parsing": "total", "component_server_creation": "total",
          "home_creation": "total", "library_load": "home_creation",
          "component_creation": "total", "configuration": "total", "registration": "total",
          "connection": "total", "activation": "total"}

MEASURE = """<script>
addEventListener("load", () => {
  const page = document.documentElement, lines = [];
  lines.push(`page ${page.scrollWidth} ${page.clientWidth}`);
  for (const element of document.querySelectorAll("table, figure, svg, pre")) {
    const own = element.getBoundingClientRect();
    const container = element.parentElement.getBoundingClientRect();
    if (own.right > container.right + 0.5 || own.left < container.left - 0.5)
      lines.push(`wider ${element.tagName} ${element.closest("[id]").id} ${own.width}`
                 + ` ${container.width}`);
  }
  const out = document.createElement("pre");
  out.id = "measured-width";
  out.textContent = lines.join("\\n");
  document.body.append(out);
});
</script>"""


def many_configurations() -> list[dict]:
    """40 configurations of calls (8 drivers by 5 payloads), 12 of deployment with phases
    (static and dynamic, 6 plans), a collocated configuration in two experiments."""
    rng = np.random.default_rng(26)
    cells = []
    for launch in (1, 2):
        for index, (driver, payload) in enumerate(
                (d, p) for d in DRIVERS for p in PAYLOADS):
            cells.append({
                "experiment": "payload", "driver": driver, "payload_bytes": payload,
                "operation": "octets", "transport": "tcp",
                "options": {"reliability": "best_effort", "data_sharing": "on"}
                if driver == "fastdds" else None, "launch": launch,
                "samples_ns": rng.lognormal(np.log(9_000 + 900 * index), 0.2, 300)})
        for experiment in ("ping", "repeat"):
            cells.append({"experiment": experiment, "mode": "collocated", "transport": "inproc",
                          "launch": launch, "samples_ns": rng.lognormal(np.log(60), 0.1, 300)})
        for assembly in ("static", "dynamic"):
            for scale, plan in enumerate(PLANS, start=1):
                cells.append(deployment(rng, assembly, plan, scale, launch))
    return cells


def deployment(rng, assembly: str, plan: str, scale: int, launch: int) -> dict:
    series = {name: rng.integers(1_000, 400_000 * scale, 20) for name in PHASES}
    series["total"] = sum(series[name] for name, whole in PHASES.items() if whole == "total")
    series["teardown"] = rng.integers(5_000, 9_000, 20)
    return {"experiment": "deploy", "driver": "deploy", "mode": "collocated",
            "transport": "inproc", "operation": "assembly", "assembly": assembly,
            "placement": "unpinned", "options": {"plan": plan}, "launch": launch,
            "samples_ns": series["total"], "named_series": NamedSeries(series, PHASES),
            "measurer_header": {"middleware_config": {
                "assembly": assembly, "plan": f"/home/someone/mwbench/build/plans/{plan}.cdp"}}}


def interop_matrix(store: Store, run_id: int) -> None:
    """A matrix of three ORBs in which pairs fail with the longest lines a client writes
    (a whole endpoint of IORs), and some are skipped."""
    long_line = "mwbench-driver-omniorb: error: the endpoint 'component=IOR:" + "0a1b" * 400
    for kind, (operation, size), client, server in itertools.product(
            ("object", "component"), (("roundtrip", 0), ("octets_inout", 65536)),
            ("omniorb", "jacorb", "glassfish"), ("omniorb", "jacorb", "glassfish")):
        status = "pass" if client == server else "fail" if server != "glassfish" else "skipped"
        store.add_interop_result(run_id, {
            "kind": kind, "operation": operation, "payload_bytes": size, "client_orb": client,
            "server_orb": server, "status": status,
            "reason": {"fail": "endpoint", "skipped": "server: driver java unavailable"}.get(
                status), "line": long_line if status == "fail" else None,
            "error": long_line if status == "fail" else None,
            "p50_us": 41.5 if status == "pass" else None, "p99_us": None, "samples": 50,
            "client": {"driver": "java", "options": {}}, "server": {"driver": "ccm",
                                                                   "options": {}},
            "duration_s": 1.0})


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory):
    directory = tmp_path_factory.mktemp("wide")
    run_id = store_cells(directory / "m.db", many_configurations())
    store = Store.open_existing(directory / "m.db")
    interop_matrix(store, run_id)
    store.close()
    output = directory / "report.html"
    result = CliRunner().invoke(main, ["report", "--db", str(directory / "m.db"),
                                       "-o", str(output)])
    assert result.exit_code == 0, result.output
    return output


def test_plans_are_named_and_repeated_rows_name_their_experiment(wide_report):
    html = wide_report.read_text()
    assert "/home/someone" not in html and ".cdp" not in html
    collocated = html[html.index('id="run1-collocated"'):]
    collocated = re.sub(r"<[^>]+>", " ", collocated[:collocated.index("</table>")])
    assert re.search(r"omniorb\s+ping\b.*\bping\s+2\b", collocated, re.S)
    assert re.search(r"omniorb\s+ping\b.*\brepeat\s+2\b", collocated, re.S)
    # The phases: a table per configuration, each in one unit.
    tables = re.findall(r'<table class="phase-table">.*?</table>', html, re.S)
    assert len(tables) == 12
    assert all(len(set(re.findall(r"(?:min|max|mean) (ms|µs)", t))) == 1 for t in tables)


def test_the_percentile_figure_has_a_panel_per_driver(wide_report):
    html = wide_report.read_text()
    figure = html[html.index('id="run1-payload-percentiles"'):]
    figure = figure[:figure.index("</figure>")]
    for driver in DRIVERS[1:]:
        assert f">{driver}<" in figure, driver
    assert ">rawtcp (the raw socket)<" in figure


@pytest.mark.parametrize("width", [1100, 1400])
def test_no_page_table_or_figure_is_wider_than_the_window(wide_report, tmp_path, width):
    chromium = shutil.which("chromium")
    assert chromium, "chromium is not installed: `make setup` installs Debian's package"
    measured = tmp_path / "measured.html"
    measured.write_text(wide_report.read_text().replace("</body>", MEASURE + "</body>"))
    loaded = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
         f"--window-size={width},2000", "--dump-dom", measured.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert loaded.returncode == 0, loaded.stderr[-2000:]
    found = re.search(r'<pre id="measured-width">(.*?)</pre>', loaded.stdout, re.S)
    assert found, "the page did not finish loading"
    lines = found.group(1).splitlines()
    _, document, viewport = lines[0].split()
    assert int(viewport) > width - 30  # the window less a scroll bar
    assert int(document) <= int(viewport), f"the page is {document} px wide in {viewport}"
    assert lines[1:] == [], "wider than their container:\n" + "\n".join(lines[1:])

    artifacts = REPO / "results" / "test-artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    screenshot = artifacts / f"report-wide-{width}.png"
    screenshot.unlink(missing_ok=True)
    shot = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile2'}",
         f"--window-size={width},6000", f"--screenshot={screenshot}", wide_report.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert shot.returncode == 0, shot.stderr[-2000:]
    assert screenshot.stat().st_size > 50_000
