"""`mwbench export`: stored results in formats other tools read.

The formats live in mwbench/export/, one module each; this verb only resolves
the database and the runs (a bad one is exit 2 before any output is opened, so
`-o FILE` is never left half written by a typo) and hands the stream over.
"""

import os
import sys
from pathlib import Path

import click

from .. import paths
from ..export import FORMATS
from ..store import Store, StoreError
from .numbers import RUN_ID
from .options import Choice, OutputError, db_option, output_file, output_option


@click.command("export")
@db_option("SQLite database (default results/mwbench.db).")
@click.option("--run", "run_ids", type=RUN_ID, multiple=True,
              help="Run id to export; may repeat. Default: the latest run.")
@click.option("--format", "fmt", type=Choice(list(FORMATS)), default="json",
              show_default=True,
              help="json, csv: one summary record per cell (a launch). configurations, "
                   "configurations-csv: one record per configuration, its figures over its "
                   "launches with intervals and its ratio to the raw socket. hdr: an "
                   "HdrHistogram log, one tagged histogram per cell. samples: every raw "
                   "sample as a CSV row. context: the runs' machine, commit, spec and "
                   "defaults, which the JSON formats carry beside their records.")
@output_option("File to write (default: standard output; its directory is made if "
               "missing).")
def command(db: Path | None, run_ids: tuple[int, ...], fmt: str, output: Path | None) -> None:
    """Export the cells of one or more runs (default: the latest run).

    \b
    Summaries, one record per cell, a launch (keys in the README, "Reading results");
    JSON as {"context": ..., "cells": [...]}, CSV without the context:
      mwbench export --format json > latest.json
      mwbench export --db results/mwbench.db --run 3 --run 4 --format csv -o cells.csv

    \b
    One record per configuration: p50 and p99 over its launches with their 95%
    intervals, and its ratio to the raw socket, launch by launch:
      mwbench export --format configurations > configurations.json
      mwbench export --format configurations-csv -o configurations.csv

    \b
    The context alone (machine, commit, spec, defaults of each run), for the CSVs:
      mwbench export --format context > context.json

    \b
    HdrHistogram log: per-call latency in ns, one histogram per cell, tagged
    run/experiment/driver/mode/transport/operation/payload/placement/hold/
    options/launch (the log's header lists every tag with its factors;
    failed cells are listed there, without a histogram):
      mwbench export --format hdr -o latest.hlog
      grep '^#   run' latest.hlog          # the tags
      java -cp HdrHistogram.jar org.HdrHistogram.HistogramLogProcessor \\
          -i latest.hlog -tag run1/ping/rawtcp/remote/tcp/roundtrip/0B/same-cpu/hold/-/launch1 \\
          -outputValueUnitRatio 1000      # percentiles in µs (default ratio 1e6: ms)

    \b
    Raw samples, one CSV row each: run_id, cell_id, the factors, batch_size,
    sample_index, value_ns (per batch, as stored), per_call_ns (value/batch),
    then series_<name>_ns for each named series (the phases of an assembly):
      mwbench export --format samples -o samples.csv
      mwbench export --run 3 --format samples | gzip > run3-samples.csv.gz
    """
    try:
        store = Store.open_existing(db or paths.default_db())
    except StoreError as error:
        _fail(error)
    try:
        run_ids = tuple(dict.fromkeys(run_ids)) or (store.latest_run_id(),)  # each run once
        for run_id in run_ids:
            store.run(run_id)  # an unknown run is an error before anything is written
        with (output_file(output, newline="") if output else _stdout()) as stream:
            notes = FORMATS[fmt](store, list(run_ids), stream)
    except StoreError as error:
        _fail(error)
    except BrokenPipeError:  # `mwbench export ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as error:  # standard output on a full disk, say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise OutputError(f"cannot write the standard output: {error.strerror}") from None
    finally:
        store.close()
    for note in notes:
        click.echo(f"mwbench export: {note}", err=True)


def _fail(error: StoreError):
    click.echo(f"mwbench export: {error}", err=True)
    sys.exit(2)


class _stdout:  # noqa: N801 - a context manager that leaves stdout open
    def __enter__(self):
        return sys.stdout

    def __exit__(self, *exc_info):
        sys.stdout.flush()
