"""`--format configurations` and `configurations-csv`: one record per configuration.

Where json and csv give one record per launch (each a cell of the store), a
configuration's figures are those of all its launches: each percentile the
median over launches of each launch's, with the 95% interval of the
hierarchical bootstrap, and the ratio to the raw-socket baseline of the same
run taken launch by launch (baseline.py), with its interval and whether it
holds 1 (`indistinguishable_from_raw`); where there is no ratio,
`raw_ratio_note` says why (the raw socket itself, collocated, a transport
without a raw counterpart, no raw configuration in the run). A configuration
of one launch has no interval; `interval_note` says so. The JSON is
`{"context": ..., "configurations": [...]}` (context.py). The keys are
listed in the README, "Reading results".
"""

import json
from typing import TextIO

from ..baseline import BASELINE_DRIVER, TRANSPORT_FAMILY, baseline_key, ratios_to_baseline
from ..comparison.runs import MATCH_FACTORS, load_run
from ..launches.estimate import configuration_key, percentile
from ..store import Store
from .context import context
from .csv_summary import write_records

CONFIGURATION_KEYS = (
    "run_id", "suite", *MATCH_FACTORS, "launches", "launches_failed",
    "p50_us", "p50_us_low", "p50_us_high", "p99_us", "p99_us_low", "p99_us_high",
    "raw_ratio_p50", "raw_ratio_p50_low", "raw_ratio_p50_high", "indistinguishable_from_raw",
    "raw_ratio_note", "interval_note",
)


def configuration_records(store: Store, run_ids: list[int]) -> list[dict]:
    records = []
    for run_id in run_ids:
        run = load_run(store, run_id)
        configurations = list(run.configurations.values())
        ratios = ratios_to_baseline([(c.factors, c.launches) for c in configurations])
        for c, ratio in zip(configurations, ratios, strict=True):
            record = {"run_id": run_id, "suite": run.suite, **c.factors,
                      "launches": len(c.launches), "launches_failed": len(c.failed)}
            if c.launches:
                launches = list(c.launches.values())
                key = configuration_key(c.factors)
                p50 = percentile(launches, 50, key=key).scaled(1e-3)
                p99 = percentile(launches, 99, key=key).scaled(1e-3)
                record.update({**p50.as_dict("p50_us"), **p99.as_dict("p99_us"),
                               "interval_note": p50.caution})
            if ratio is not None:
                record.update({**ratio.as_dict("raw_ratio_p50"),
                               "indistinguishable_from_raw": ratio.includes(1.0)})
            else:
                record["raw_ratio_note"] = no_ratio_note(c.factors, bool(c.launches))
            records.append({key: record.get(key) for key in CONFIGURATION_KEYS})
    return records


def no_ratio_note(factors: dict, measured: bool) -> str:
    """Why a configuration has no ratio to the raw socket (baseline.py)."""
    if not measured:
        return "no launch succeeded"
    if factors.get("mode") != "remote":
        return "collocated: no socket, so no raw socket to read it against"
    if factors.get("transport") not in TRANSPORT_FAMILY:
        return f"transport {factors.get('transport')} has no raw-socket counterpart"
    if factors.get("driver") == BASELINE_DRIVER and baseline_key(factors) is not None:
        return "the raw socket itself"
    return ("this run has no raw-socket (rawtcp) configuration of the same reach, operation, "
            "payload, placement, threads and background that succeeded in the same launches")


def write_json(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    json.dump({"context": context(store, run_ids),
               "configurations": configuration_records(store, run_ids)}, stream, indent=2)
    stream.write("\n")
    return []


def write_csv(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    return write_records(configuration_records(store, run_ids), CONFIGURATION_KEYS, stream)
