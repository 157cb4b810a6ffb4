"""The report's full factorial on known stored cells: OpenCCM's ORB x layer as a 3x2.

Experiment `method-call` crosses drivers [ccm, java] with orb [omniorb, jacorb,
glassfish] and layer [object, component]; ccm runs omniorb, java the two Java
ORBs, so the driver is carried by the orb and does not split the design.
Each launch has three calls m - d, m, m + d (µs); the launches of a cell have
medians c - 1, c, c + 1 around its cell mean c (test_full_factorial.py):

    orb         driver   object   component
    omniorb     ccm        15        17
    jacorb      java       19        23
    glassfish   java       20        26

    effects: orb -4, +1, +3; layer -2, +2; orb x layer +1 -1 / 0 0 / -1 +1
    shares: 156, 72, 12 and error 12 of 252
    the layer's cost per ORB, median component / object launch by launch: 17/15, 23/19,
    26/20
"""

import html as markup
import re

import pytest
from scipy import stats

from conftest import stored_run
from mwbench.report import build_report
from mwbench.report.data import load_run
from mwbench.report.factors.factorial import designs

SPEC = """\
suite: known
experiments:
  - name: method-call
    operation: ping
    drivers: [ccm, java]
    orb: [omniorb, jacorb, glassfish]
    layer: [object, component]
    launches: 3
    factorial: [orb, layer]
"""
ORBS = {"omniorb": ("ccm", (15, 17)), "jacorb": ("java", (19, 23)),
        "glassfish": ("java", (20, 26))}


def calls(median_us: float, spread_us: float = 0.5) -> list[int]:
    return [int(1000 * (median_us + offset)) for offset in (-spread_us, 0, spread_us)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    cells = [{"experiment": "method-call", "driver": driver, "orb": orb, "layer": layer,
              "launch": launch, "samples_ns": calls(mean + launch - 2)}
             for orb, (driver, means) in ORBS.items()
             for layer, mean in zip(("object", "component"), means, strict=True)
             for launch in (1, 2, 3)]
    with stored_run(tmp_path_factory.mktemp("levels") / "m.db", cells, spec_text=SPEC) as opened:
        yield opened


@pytest.fixture(scope="module")
def design(stored):
    store, run_id = stored
    section = designs(load_run(store, run_id))
    assert section["notes"] == []
    (found,) = section["designs"]
    return found


def test_the_driver_each_orb_runs_on_is_carried_not_a_split(design):
    assert design["kind"] == "full" and design["configuration"] == "all"
    assert design["carried"] == ["driver"] and design["missing"] == []
    assert [(c["levels"], c["carried"]) for c in design["cells"]] == [
        (["omniorb", "object"], ["ccm"]), (["omniorb", "component"], ["ccm"]),
        (["jacorb", "object"], ["java"]), (["jacorb", "component"], ["java"]),
        (["glassfish", "object"], ["java"]), (["glassfish", "component"], ["java"])]
    assert [c["means"]["median"] for c in design["cells"]] == pytest.approx(
        [15, 17, 19, 23, 20, 26])
    assert [c["means"]["jitter"] for c in design["cells"]] == pytest.approx([0.5] * 6)


def test_the_effect_of_each_level_and_each_interaction_cell(design):
    median = {row["name"]: row["metrics"]["median"] for row in design["effects"]}
    assert list(median) == [
        "orb=omniorb", "orb=jacorb", "orb=glassfish", "layer=object", "layer=component",
        "orb=omniorb × layer=object", "orb=omniorb × layer=component",
        "orb=jacorb × layer=object", "orb=jacorb × layer=component",
        "orb=glassfish × layer=object", "orb=glassfish × layer=component"]
    assert [e.estimate for e in median.values()] == pytest.approx(
        [-4, 1, 3, -2, 2, 1, -1, 0, 0, -1, 1], abs=1e-9)
    for effect in median.values():
        assert effect.interval[0] <= effect.estimate <= effect.interval[1]
    assert [e.significant for e in list(median.values())[:5]] == [True] * 5


def test_allocation_of_variation_with_jains_f_test(design):
    terms = {t["name"]: t for t in design["terms"]}
    assert list(terms) == ["orb", "layer", "orb × layer"]
    assert [t["df"] for t in terms.values()] == [2, 1, 2]
    assert [t["metrics"]["median"]["share"] for t in terms.values()] == pytest.approx(
        [156 / 252, 72 / 252, 12 / 252])
    assert design["error"]["median"] == pytest.approx(12 / 252)
    assert terms["orb × layer"]["metrics"]["median"]["p"] == pytest.approx(
        stats.f.sf(6.0, 2, 12))
    assert design["sentence"] == (
        "Median time per call: orb explains most of the variation (62%; largest effect "
        "-4.000 µs at orb=omniorb); the interaction orb × layer is significant (F test, "
        "p < 0.05).")


def test_the_layers_cost_on_each_orb_is_a_ratio_of_medians_launch_by_launch(design):
    # Launch k of a cell has median c - 1, c, c + 1: the median of the three pairs' ratios
    # is the middle launch's, 17/15 on omniorb. orb has three levels: no ratio of its own.
    ratios = {(row["factor"], row["at"]): row for row in design["ratios"]}
    assert list(ratios) == [("layer", "orb=omniorb"), ("layer", "orb=jacorb"),
                            ("layer", "orb=glassfish")]
    assert {row["change"] for row in ratios.values()} == {"object → component"}
    values = [row["ratio"] for row in ratios.values()]
    assert [r.value for r in values] == pytest.approx([17 / 15, 23 / 19, 26 / 20])
    assert all(r.launches == 3 and r.low <= r.value <= r.high for r in values)


def test_the_report_renders_the_levels_the_variation_and_the_figure(stored):
    store, run_id = stored
    page = build_report(store, [run_id])
    anchor = f"run{run_id}-factorial-method-call-0"
    for part in ("cells", "effects", "variation", "ratios", "reading", "interaction"):
        assert f'id="{anchor}-{part}"' in page
    words = markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    assert "orb=jacorb × layer=component" in words
    assert "61.9%" in words and "4.8%" in words  # orb's share; the error's
    assert "read as a full factorial (Jain, chapter 22)" in words
    assert page.count("<strong>What it shows:</strong>") == page.count("<figure")
