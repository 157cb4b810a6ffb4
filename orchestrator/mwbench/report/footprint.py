"""Footprint per configuration: what a process loaded and held, Java and C++ side by side.

OpenCCM measured an ORB's footprint as the number and size of the classes it
loaded at run time. A JVM driver records, in its result headers'
`middleware_config`, `footprint` {"classes_loaded", "class_bytes", "rss_kb",
"hwm_kb"} at steady state, and `jvm_pauses` {"count", "total_ns", "max_ns"}:
the collections during the measured loop, with a named series `jvm_pause`
(the pause time within each sample). A C++ driver loads no classes; its
peak resident set is `rusage.max_rss_kb` of the same headers. The table gives,
per configuration and process (the measuring one, and the server), the
median over launches of each; an experiment gets it when one of its
configurations recorded a JVM's footprint or pauses, so that the C++
drivers beside it are read on the same scale.

Where pauses are recorded, the table says whether the slowest sample of a
launch coincides with one (its `jvm_pause` value above 0): a maximum that
a collection caused must be visible as such. The deploy driver's footprint
(per process of a deployment, `processes`) is the phases section's
(phases.py), not this one's. Every key is the driver's to shape, so each is
read defensively: a value that is not a non-negative number is not shown.
"""

import math

import numpy as np

from .data import Configuration, Experiment

PAUSE_SERIES = "jvm_pause"
ROLES = (("measurer_header", "measuring"), ("server_header", "server"))


def table(experiment: Experiment) -> list[dict]:
    """A row per configuration and process of an experiment in which a JVM recorded its
    footprint or pauses; [] in any other experiment."""
    ok = [c for c in experiment.configurations if c.ok]
    if not any(_jvm(cell.get(key)) for c in ok for cell in c.cells for key, _ in ROLES):
        return []
    rows = []
    for configuration in ok:
        for key, role in ROLES:
            headers = [cell.get(key) for cell in configuration.cells]
            if not any(isinstance(header, dict) for header in headers):
                continue
            row = _row(configuration.label, role, headers)
            if key == "measurer_header":
                row.update(_slowest(configuration))
            rows.append(row)
    return rows


def _config(header) -> dict:
    config = header.get("middleware_config") if isinstance(header, dict) else None
    return config if isinstance(config, dict) else {}


def _flat_footprint(header) -> dict:
    footprint = _config(header).get("footprint")
    # A deployment's footprint lists its processes: phases.py reads that shape.
    if not isinstance(footprint, dict) or "processes" in footprint:
        return {}
    return footprint


def _pauses(header) -> dict:
    pauses = _config(header).get("jvm_pauses")
    return pauses if isinstance(pauses, dict) else {}


def _jvm(header) -> bool:
    footprint = _flat_footprint(header)
    return "classes_loaded" in footprint or bool(_pauses(header))


def _row(label: str, role: str, headers: list) -> dict:
    footprints = [_flat_footprint(h) for h in headers]
    pauses = [_pauses(h) for h in headers if _pauses(h)]

    def median(key: str) -> float | None:
        return median_of([known_count(f.get(key)) for f in footprints])

    peak = [known_count(f.get("hwm_kb")) for f in footprints]
    if all(value is None for value in peak):  # a C++ driver: the peak of its rusage
        peak = [known_count((h.get("rusage") or {}).get("max_rss_kb")) if isinstance(h, dict)
                else None for h in headers]
    return {
        "configuration": label, "process": role,
        "classes": _whole(median("classes_loaded")),
        "class_bytes": size_text(median("class_bytes")),
        "resident": _kib(median("rss_kb")),
        "peak": _kib(median_of(peak)),
        "pauses": _whole(median_of([known_count(p.get("count")) for p in pauses])),
        "pause_total": _ms(median_of([known_count(p.get("total_ns")) for p in pauses])),
        "pause_max": _ms(_largest([known_count(p.get("max_ns")) for p in pauses])),
        "launches": sum(1 for h in headers if isinstance(h, dict)),
        "slowest": "–", "slowest_in_pause": "–",
    }


def _slowest(configuration: Configuration) -> dict:
    """The slowest sample over the launches, and in how many launches the slowest sample
    fell in a JVM pause (its `jvm_pause` value above 0), where the series was recorded."""
    slowest = max((float(samples.max()) for samples in configuration.launches.values()
                   if samples.size), default=None)
    with_series = in_pause = 0
    for cell, series in zip(configuration.cells, configuration.named_series, strict=True):
        samples = configuration.launches.get(cell["launch"])
        pause = series.get(PAUSE_SERIES) if series is not None else None
        if samples is None or pause is None or pause.size != samples.size or not samples.size:
            continue
        with_series += 1
        in_pause += int(pause[int(np.argmax(samples))] > 0)
    return {"slowest": "–" if slowest is None else f"{slowest:,.1f} µs",
            "slowest_in_pause": f"{in_pause} of {with_series}" if with_series else "–"}


def known_count(value) -> float | None:
    """A non-negative number, or None (absent, a string, -1 for unknown, ...)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def median_of(values: list[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return float(np.median(known)) if known else None


def _largest(values: list[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return max(known) if known else None


def _whole(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def _ms(ns: float | None) -> str:
    return "–" if ns is None else f"{ns / 1e6:,.2f} ms"


def _kib(kib: float | None) -> str:
    return size_text(None if kib is None else kib * 1024)


def size_text(size: float | None) -> str:
    if size is None:
        return "–"
    for unit, bytes_in in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= bytes_in:
            return f"{size / bytes_in:.1f} {unit}"
    return f"{size:.0f} B"
