"""The context block of the JSON exports, as Google Benchmark's JSON has one.

A record copied out of an export must still say what measured it: the JSON
formats are `{"context": ..., "cells": [...]}` (or `"configurations"`), and
the context holds, for the export, mwbench's version and the time it was
written, and for each exported run its suite, spec (path and text), the
mwbench that ran it, when it ran, its machine (`mwbench env`'s), kernel,
commit, the seed of its order, and the level of every factor the spec left
to `defaults` (placement, idle hold, priority, ...): what a cell that does
not name a factor ran with. The CSV formats are tables of records and carry
no context; `--format context` writes the block alone beside them.
"""

import json
from datetime import UTC, datetime
from typing import TextIO

import yaml

from .. import __version__
from ..factors import FACTORS
from ..store import Store


def context(store: Store, run_ids: list[int]) -> dict:
    return {"mwbench_version": __version__,
            "exported_utc": datetime.now(UTC).isoformat(timespec="seconds"),
            "runs": [_run_context(store, run_id) for run_id in run_ids]}


def _run_context(store: Store, run_id: int) -> dict:
    row = store.run(run_id)
    environment = json.loads(row["environment"] or "{}")
    return {
        "run_id": run_id, "suite": row["suite"], "spec_path": row["spec_path"],
        "spec": row["spec_text"], "mwbench_version": row["mwbench_version"],
        "started_utc": row["started_utc"], "finished_utc": row["finished_utc"],
        "status": Store.status(row), "seed": row["seed"],
        "machine": environment.get("machine"), "kernel": environment.get("kernel"),
        "git": environment.get("git"), "defaults": defaults(row["spec_text"]),
    }


def defaults(spec_text: str) -> dict:
    """Each factor's level when an experiment does not set it: the spec's `defaults:`,
    else the registry's (factors.py). Lists stay lists: every level is crossed."""
    try:
        document = yaml.safe_load(spec_text) or {}
        given = (document.get("defaults") or {}) if isinstance(document, dict) else {}
    except yaml.YAMLError:  # stored as the run read it: only a hand-made store fails here
        given = {}
    levels = {}
    for factor in FACTORS:
        if factor.spec_key and factor.in_defaults:
            level = given.get(factor.spec_key, list(factor.default))
            levels[factor.name] = level if isinstance(level, list) else [level]
    return levels


def write(store: Store, run_ids: list[int], stream: TextIO) -> list[str]:
    """`--format context`: the block alone, for the CSV formats."""
    json.dump(context(store, run_ids), stream, indent=2)
    stream.write("\n")
    return []
