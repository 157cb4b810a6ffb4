"""`mwbench estimate`: the combined-factor estimate of one combination, from a stored run."""

import json
from pathlib import Path

import click

from ..estimate import Estimate, EstimateError, Selection, estimate, run_cells
from ..store import Store
from .numbers import PAYLOAD_BYTES, RUN_ID, SERVANTS, THREADS
from .options import db_option
from .stored import read_store


def _option(_context, _parameter, values: tuple[str, ...]) -> dict:
    options = {}
    for value in values:
        key, equals, setting = value.partition("=")
        if not equals or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE")
        options[key] = setting
    return options


@click.command("estimate")
@db_option("SQLite database (default results/mwbench.db).")
@click.option("--run", "run_id", type=RUN_ID, default=None, help="Run id (default: the latest).")
@click.option("--payload-bytes", type=PAYLOAD_BYTES, default=0, show_default=True,
              help="Size of the call's arguments (s).")
@click.option("--servants", type=SERVANTS, default=1, show_default=True,
              help="Servants registered in the server (n).")
@click.option("--threads", type=THREADS, default=1, show_default=True,
              help="Client threads calling at once (t).")
@click.option("--driver", default=None, help="Driver, when the run measured several.")
@click.option("--transport", default=None, help="Transport, when the run measured several.")
@click.option("--placement", default=None, help="Placement, when the run measured several.")
@click.option("--operation", default=None,
              help="Operation of the size sweep, when it measured several.")
@click.option("--option", "options", multiple=True, callback=_option, metavar="KEY=VALUE",
              help="Driver option the sweeps must have been run with; may repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print the estimate as one JSON object.")
def command(db: Path | None, run_id: int | None, payload_bytes: int, servants: int,
            threads: int, driver: str | None, transport: str | None, placement: str | None,
            operation: str | None, options: dict, as_json: bool) -> None:
    """Estimate the time per call of a combination of factors from single-factor sweeps.

    \b
      estimated = (simple + size(s) - size(0) + servants(n) - servants(1))
                  * threads(t) / threads(1)

    Each term is the median time per call of the run's experiment with that
    role (`role:` in the spec: simple, size, servants, threads); the answer
    names every stored cell it used. A size between two measured sizes is
    interpolated linearly; any other missing point is an error that names
    the factor and the values the run measured. Where the run holds several
    drivers, transports, placements, operations or option settings, the
    one its mixture experiment used is taken, or choose with the options.

    Exits 0 with an estimate, 2 when one cannot be made.

    \b
    Examples:
      mwbench estimate --payload-bytes 4096 --servants 1000 --threads 4
      mwbench estimate --db results/ocb.db --run 3 --payload-bytes 1024 --servants 100 \\
          --threads 2 --driver omniorb --transport tcp --placement same-cpu --json
    """
    selection = Selection(driver=driver, transport=transport, placement=placement,
                          operation=operation, options=options)
    def read(store: Store) -> tuple[int, Estimate]:
        stored_run = run_id or store.latest_run_id()
        return stored_run, estimate(run_cells(store, stored_run), payload_bytes, servants,
                                    threads, selection)

    run_id, result = read_store("estimate", db, read, errors=(EstimateError,))
    if as_json:
        click.echo(json.dumps(_record(run_id, result), indent=2))
    else:
        click.echo(_text(run_id, result))


def _record(run_id: int, result: Estimate) -> dict:
    return {
        "run_id": run_id, "payload_bytes": result.payload_bytes, "servants": result.servants,
        "threads": result.threads, **result.context, "estimate_us": result.estimate_us,
        "formula": result.formula(),
        "terms": [{"term": p.term, "value_us": p.value_us, "experiment": p.experiment,
                   "cell_ids": list(p.cell_ids), "note": p.note or None}
                  for p in result.terms],
    }


def _text(run_id: int, result: Estimate) -> str:
    c = result.context
    lines = [
        f"run {run_id}, {c['driver']} {c['mode']} {c['transport']} {c['placement']}"
        + (f" background {c['background']}" if c["background"] != "none" else "")
        + f": {result.payload_bytes} B, {result.servants} servants, {result.threads} threads",
        f"estimated time per call: {result.estimate_us:.3f} µs (median, per thread)",
        f"  = {result.formula()}",
        "from the stored cells (median per call in µs; with launches, the median of their "
        "medians):",
    ]
    for point in result.terms:
        cells = ", ".join(str(i) for i in point.cell_ids)
        lines.append(f"  {point.term:<16} {point.value_us:10.3f}  experiment {point.experiment}, "
                     f"cell{'s' if len(point.cell_ids) > 1 else ''} {cells}"
                     + (f" ({point.note})" if point.note else ""))
    return "\n".join(lines)
