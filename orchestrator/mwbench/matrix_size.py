"""How large a spec may be: refused before its matrix is built (matrix.py), so that a typo
cannot exhaust the machine just expanding it."""

import math

from .drivers import DriverInfo
from .factors import FACTORS
from .spec import Spec, effective_settings

# What one run may ask for: about a day at one second a cell; samples
# whose buffers, result files and parsed copies fit in half the available memory
# (about 64 bytes a sample, all told); calls that fit in a day at 50 ns each, faster
# than any call measured here (a collocated call takes about 70 ns).
MAX_CELLS = 100_000
BYTES_PER_SAMPLE = 64
MIN_CALL_NS = 50
DAY_S = 24 * 3600


def size_problem(spec: Spec, drivers: dict[str, DriverInfo]) -> str | None:
    """Why a spec is refused whose cells, samples or calls cannot fit the machine or a
    day (None if they fit), from an upper bound of each (combinations a driver skips are
    counted too)."""
    cells = calls = 0
    per_experiment = []
    for experiment in spec.experiments:
        settings = effective_settings(spec, experiment)
        count = _most_cells(experiment, settings, drivers)
        per_experiment.append((count, experiment.name))
        cells += count
        batch = settings["batch"] if isinstance(settings["batch"], int) else 1
        calls += count * (settings["warmup"] + settings["samples"] * batch)
        threads = max(t or 1 for t in settings["threads"])
        kept = settings["samples"] * threads
        available = _available_memory_bytes()
        if available and kept * BYTES_PER_SAMPLE > available // 2:
            return (f"experiment '{experiment.name}': {kept:,} samples a cell (samples "
                    f"{settings['samples']:,} x threads {threads}) need about "
                    f"{kept * BYTES_PER_SAMPLE / 2**30:,.1f} GiB; this machine has "
                    f"{available / 2**30:,.1f} GiB available: lower samples")
    largest = max(per_experiment)
    if cells > MAX_CELLS:
        return (f"the spec asks for up to {cells:,} cells (experiment "
                f"'{largest[1]}': {largest[0]:,}); one run has at most "
                f"{MAX_CELLS:,}, about a day: fewer values or launches")
    if calls * MIN_CALL_NS / 1e9 > DAY_S:
        return (f"the spec asks for {calls:,} calls (warm-up and samples of up to "
                f"{cells:,} cells): more than a day even at {MIN_CALL_NS} ns a "
                "call: fewer samples, warm-up calls or launches")
    return None


def _most_cells(experiment, settings: dict, drivers: dict[str, DriverInfo]) -> int:
    """The cells the experiment can have at most: the product of its lists."""
    transports = max((len(settings["transports"] or drivers[name].transports(mode))
                      for name in experiment.drivers for mode in settings["modes"]),
                     default=1)
    fanouts = len(settings["subscribers"]) * len(settings["subscriber_processes"])
    lists = [experiment.drivers, settings["modes"], experiment.operation,
             *(settings[factor.spec_key] for factor in FACTORS if factor.crossed),
             *settings["options"].values()]
    return math.prod(len(values) for values in lists) * max(transports, 1) * fanouts \
        * settings["launches"]


def _available_memory_bytes() -> int | None:
    """MemAvailable of /proc/meminfo, or None where it cannot be read."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None
