"""`mwbench report`: one self-contained HTML file for one or more stored runs.

Figures are inline SVG and the styles are inline, so the file opens anywhere,
offline, and can be mailed or archived as it is. Each figure carries two
lines in the manner of a full-disclosure report: what it shows, and when its
simplification may not apply. A run of `mwbench interop` gets its matrices
(interop.py). Per experiment: its summary table and figures,
then, when its cells have named series, the phases of a sample (phases.py), and when a
JVM recorded its footprint, the footprint of every configuration (footprint.py).
"""

from datetime import UTC, datetime
from importlib.resources import files

import jinja2

from .. import __version__
from ..baseline import BASELINE_DRIVER
from ..store import Store
from . import disclosure, factors, figures, footprint, interop, phases, tables
from .data import LABEL_FACTORS, SWEPT_FACTORS, Run, label, load_run

# Beyond this many configurations, a box or percentile line each is unreadable.
MAX_DRAWN = 40


def build_report(store: Store, run_ids: list[int]) -> str:
    runs = [load_run(store, run_id) for run_id in run_ids]
    environment = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template), autoescape=True,
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    return environment.get_template("report.html.j2").render(
        runs=[_run_view(run) for run in runs],
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        version=__version__,
    )


def _template(name: str) -> str:
    return files(__package__).joinpath("templates", name).read_text(encoding="utf-8")


def _run_view(run: Run) -> dict:
    return {
        "run": run,
        "facts": disclosure.facts(run),
        "warnings": disclosure.warnings(run),
        "baseline": tables.baseline_rows(run),
        "collocated": tables.collocated_rows(run),
        "factors": factors.sections(run),
        "interop": interop.section(run.id, run.interop),
        "experiments": [_experiment_view(run, e) for e in run.experiments],
    }


def _experiment_view(run: Run, experiment) -> dict:
    ok = [c for c in experiment.configurations if c.ok]
    failed = [{**cell, "label": label(cell, LABEL_FACTORS)} for cell in experiment.failed]
    view = {"experiment": experiment, "figures": [], "summary": [], "failed": failed,
            "anchor": f"run{run.id}-{experiment.name}", "note": None, "phases": None,
            "footprint": [], "open_loop": False}
    if not ok:
        return view
    view["summary"] = tables.summary_rows(experiment)
    view["open_loop"] = any(row["open"] for row in view["summary"])
    view["footprint"] = footprint.table(experiment)
    view["phases"] = phases.section(view["anchor"], experiment)
    samples = min(c.per_call_us.size for c in ok)
    batched = any((cell["batch_size"] or 1) > 1 for c in ok for cell in c.cells)
    # Collocated calls are a hundred times shorter than remote ones: one scale
    # for both would flatten one of them, so each mode gets its own figure.
    modes = sorted({c.factors["mode"] for c in ok}, key=lambda mode: mode != "remote")
    if len(ok) > MAX_DRAWN:
        view["note"] = (f"{len(ok)} configurations: too many to draw one box or percentile "
                        "line each; the table above and the figures against the swept factors "
                        "show them.")
    else:
        view["figures"] += _distribution_figures(view["anchor"], ok, modes, samples, batched)
    for factor in SWEPT_FACTORS:
        if factor not in experiment.varying():
            continue
        name = factor.replace("_", " ")
        for mode in modes:
            suffix = f" ({mode})" if len(modes) > 1 else ""
            view["figures"].append({
                "id": f"{view['anchor']}-sweep-{factor}-{mode}", "kind": "sweep",
                "title": f"Time per call against {name}{suffix}",
                "svg": figures.sweep(experiment, factor, mode),
                "shows": f"How the median time per call (band: p25–p75) and the throughput "
                         f"change with {name}, one line per configuration.",
                "limits": "The lines join measured points only; between them, and beyond a "
                          "saturated resource (a full CPU, a full network buffer), the growth "
                          "need not be linear.",
            })
    return view


def _distribution_figures(anchor: str, ok: list, modes: list[str], samples: int,
                          batched: bool) -> list[dict]:
    found = []
    for mode in modes:
        members = [c for c in ok if c.factors["mode"] == mode]
        suffix = f" ({mode})" if len(modes) > 1 else ""
        found.append({
            "id": f"{anchor}-box-{mode}", "kind": "box",
            "title": f"Distribution per configuration, and throughput{suffix}",
            "svg": figures.box_and_throughput(members),
            "shows": "The time per call of each configuration, the calls of all its launches "
                     "pooled: the box holds the middle half of the calls, the red line is the "
                     "median, the whiskers reach the 1st and 99th percentiles; each dot above "
                     "the box is one launch's median (a launch is a new set of processes, "
                     "and launches settle near a few levels); on the right, calls per second "
                     "of the measured loop.",
            "limits": "Calls slower than p99 are not drawn (the percentile figure shows them). "
                      "Throughput is that of the client threads together, each waiting for "
                      "its reply, not the capacity of the server.",
        })
    found.append({
        "id": f"{anchor}-percentiles", "kind": "percentiles",
        "title": "Percentile distribution",
        "svg": figures.percentile_distribution(ok, reference=BASELINE_DRIVER),
        "shows": "The time within which the given share of calls completed, a panel per "
                 "driver on one scale, the raw socket's lines in grey behind each; each tick "
                 "to the right is ten times rarer, so the slowest calls are not hidden.",
        "limits": f"The far tail rests on few calls (the smallest configuration has {samples} "
                  "samples, so its last percentiles are single calls)"
                  + ("; batched cells time groups of calls, which averages the tail away."
                     if batched else "."),
    })
    return found
