"""`mwbench report`: the stored runs as one self-contained HTML file."""

from pathlib import Path

import click

from .numbers import RUN_ID
from .options import db_option, output_file, output_option
from .stored import read_store


@click.command("report")
@db_option("SQLite database (default results/mwbench.db).")
@click.option("--run", "run_ids", type=RUN_ID, multiple=True,
              help="Run id to include; may repeat. Default: the latest run.")
@output_option("HTML file to write (its directory is made if missing).", required=True)
def command(db: Path | None, run_ids: tuple[int, ...], output: Path) -> None:
    """Write an HTML report: disclosure, warnings, figures and baseline ratios.

    The file is self-contained (inline SVG figures and styles): it opens
    offline in any browser.

    \b
    Examples:
      mwbench report -o results/report.html
      mwbench report --db results/mwbench.db --run 3 --run 4 -o before-after.html
    """
    from ..report import build_report  # matplotlib is slow to import: only for this verb

    html = read_store("report", db,
                      lambda store: build_report(store, list(run_ids) or [store.latest_run_id()]))
    with output_file(output) as stream:
        stream.write(html)
    click.echo(f"report written to {output}")
