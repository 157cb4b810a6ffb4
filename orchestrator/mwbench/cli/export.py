"""`mwbench export`: stored cells as JSON or CSV, for other tools."""

import csv
import json
import sys
from pathlib import Path

import click

from .. import paths
from ..export import EXPORT_KEYS, cell_records
from ..store import Store, StoreError


@click.command("export")
@click.option("--db", type=click.Path(path_type=Path), default=None,
              help="SQLite database (default results/mwbench.db).")
@click.option("--run", "run_ids", type=int, multiple=True,
              help="Run id to export; may repeat. Default: the latest run.")
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json",
              show_default=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="File to write (default: standard output).")
def command(db: Path | None, run_ids: tuple[int, ...], fmt: str, output: Path | None) -> None:
    """Export one summary record per cell.

    \b
    Examples:
      mwbench export --format json > latest.json
      mwbench export --db results/mwbench.db --run 3 --run 4 --format csv -o cells.csv
    """
    try:
        store = Store.open_existing(db or paths.default_db())
        try:
            records = cell_records(store, list(run_ids) or [store.latest_run_id()])
        finally:
            store.close()
    except StoreError as error:
        click.echo(f"mwbench export: {error}", err=True)
        sys.exit(2)
    with (open(output, "w", newline="") if output else _stdout()) as stream:
        if fmt == "json":
            json.dump(records, stream, indent=2)
            stream.write("\n")
        else:
            writer = csv.DictWriter(stream, fieldnames=EXPORT_KEYS)
            writer.writeheader()
            for record in records:
                writer.writerow({k: _csv_value(v) for k, v in record.items()})


def _csv_value(value):
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return "" if value is None else value


class _stdout:  # noqa: N801 - a context manager that leaves stdout open
    def __enter__(self):
        return sys.stdout

    def __exit__(self, *exc_info):
        sys.stdout.flush()
