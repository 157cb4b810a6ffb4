"""Marshalling: the cost of data as the slope of a line through time against payload.

The Open CORBA Benchmarking suite observes that the round trip grows
linearly with the size of the data, so one number sums it up: the slope of
a least-squares line through the median time per call at each measured
size, in µs per KiB (and, inverted, the data rate it implies). R² says how
well a line describes the points; a low R² means steps (a buffer or
segment size crossed), and the sweep figure shows where.

The fit is unweighted and over the medians. With sizes in powers of two
most points sit at small sizes, so the largest sizes set the slope: that
is the copying cost, while the intercept is the call itself.
"""

import numpy as np

from ..data import Run
from ..figures import plt, to_svg

MIN_POINTS = 3  # a line through two points always fits: R² says nothing


def fits(run: Run) -> list[dict]:
    rows = []
    for experiment in run.sweeping("size"):
        for name, members in experiment.series("payload_bytes"):
            if len(members) < MIN_POINTS:
                continue
            kib = np.array([c.factors["payload_bytes"] for c in members], dtype=float) / 1024
            median = np.array([c.percentile(50) for c in members])
            slope, intercept = np.polyfit(kib, median, 1)
            residual = median - (slope * kib + intercept)
            spread = ((median - median.mean()) ** 2).sum()
            r2 = 1 - (residual ** 2).sum() / spread if spread > 0 else 1.0
            factors = members[0].factors
            rows.append({
                "experiment": experiment.name, "series": name, "driver": factors["driver"],
                "operation": factors["operation"], "points": len(members),
                "sizes": f"{members[0].factors['payload_bytes']}–"
                         f"{members[-1].factors['payload_bytes']} B",
                "slope": float(slope), "intercept": float(intercept), "r2": float(r2),
                "mib_per_s": 1024 / slope / 1.048576 if slope > 0 else None,
                "kib": kib, "median": median,
            })
    return rows


def type_notes(rows: list[dict]) -> list[str]:
    """Where direction or type matters: each operation's slope against octets' of the same
    series, per byte moved (an inout payload crosses the connection twice)."""
    notes = []
    for row in rows:
        if row["operation"] == "octets" or row["slope"] <= 0:
            continue
        twin = next((r for r in rows if r["operation"] == "octets" and r["slope"] > 0
                     and r["driver"] == row["driver"] and r["experiment"] == row["experiment"]
                     and _rest(r) == _rest(row)), None)
        if twin is None:
            continue
        crossings = 2 if "inout" in row["operation"] else 1
        ratio = row["slope"] / twin["slope"]
        per_byte = ratio / crossings
        where = " ".join(part for part in (row["driver"], _rest(row)) if part)
        text = (f"{where}: {row['operation']} costs {row['slope']:.4f} µs per KiB against "
                f"{twin['slope']:.4f} for octets (×{ratio:.2f}")
        text += f"; it moves the payload both ways, so ×{per_byte:.2f} per byte moved)" \
            if crossings == 2 else ")"
        if 1 / 1.5 <= per_byte <= 1.5:
            text += ": per byte moved, the direction or type hardly matters."
        elif row["operation"].startswith("octets"):
            text += ": the direction matters here, beyond the bytes it moves."
        else:
            text += (": the type matters here: its elements are marshalled one by one rather "
                     "than copied as a block.")
        notes.append(text)
    return notes


def _rest(row: dict) -> str:
    """The series label without the operation: what must match for a comparison."""
    return " ".join(part for part in row["series"].split()
                    if part not in (row["operation"], row["driver"], "all"))


def figure(rows: list[dict]) -> str:
    shown, axes = plt.subplots(figsize=(10, 4.2))
    for row in rows:
        line, = axes.plot(row["kib"], row["median"], marker="o", markersize=3, linestyle="none",
                          label=f"{row['experiment']}: {row['series']} "
                                f"({row['slope']:.3f} µs/KiB, R² {row['r2']:.3f})")
        grid = np.linspace(0, row["kib"].max(), 50)
        axes.plot(grid, row["slope"] * grid + row["intercept"], color=line.get_color(),
                  linewidth=1, linestyle="--")
    axes.set_xlabel("payload (KiB)")
    axes.set_ylabel("µs per call (median; dashed: least-squares line)")
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return to_svg(shown)
