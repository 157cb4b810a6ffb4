"""The report's reading of single factors, after the Open CORBA Benchmarking suite.

Each module turns the sweeps of a run into a section, when the run has them:
invocation (the round trip and the delivery per invocation mode, OCB's
Figure 1), marshalling (time against payload, as a linear fit), dispatcher (time
against registered servants, and which shape of a poor object map, if any),
parallelism (per-thread time and system rate against threads), background
(the round trip under CPU load) and estimates (the combined-factor estimate
against the mixture experiment); fan-out (latency to the last subscriber and
events delivered per second against subscribers); offered load (an open
loop's response time against the rate offered, its knee and the maximum
sustainable rate); then factorial, the main effects and
interactions of each experiment whose spec declares a factorial design (2^k, or a full
factorial of factors of up to six levels). A section
works on whatever run has its factor swept, not only on suites/ocb.yaml: it
reads the experiments whose role is its factor (size, servants, threads)
when the run has them, so that the sweeps of a mixture or a background
experiment do not crowd the reading, and every experiment that sweeps the
factor otherwise.
"""

from ..data import Run
from . import (
    background,
    dispatcher,
    estimates,
    factorial,
    fanout,
    invocation,
    marshalling,
    offered_load,
    parallelism,
)


def sections(run: Run) -> list[dict]:
    """The sections this run has data for, in the order of the paper."""
    found = []
    anchor = f"run{run.id}"
    if panels := invocation.series(run):
        found.append({
            "id": f"{anchor}-invocation", "kind": "invocation", "title": "Invocation modes",
            "panels": panels,
            "figures": [_figure(
                f"{anchor}-invocation-modes", "Round trip and delivery per invocation mode",
                invocation.figure(panels),
                "For each configuration, the time of each invocation mode, launches pooled: "
                "the round trip (the call to its return) and, beside it, the delivery (the "
                "client's send to the servant's entry); a oneway call has no reply, so its "
                "delivery alone. Box: the middle half of the calls, red line: the median, "
                "whiskers: p1 and p99.",
                "The delivery is timed from two processes' reads of one monotonic clock, so on "
                "one host only; a mode without the option delivery_time=1 shows its round trip "
                "alone. Calls slower than p99 are not drawn (the table gives p99).")],
        })
    if rows := marshalling.fits(run):
        found.append({
            "id": f"{anchor}-marshalling", "kind": "marshalling", "title": "Marshalling",
            "rows": rows, "notes": marshalling.type_notes(rows),
            "figures": [_figure(
                f"{anchor}-marshalling-fit", "Time per call against payload, with the linear "
                "fits", marshalling.figure(rows),
                "The median time per call at each measured payload (points) and the "
                "least-squares line through them (dashed), one per driver and operation; the "
                "slope is the cost of the data in µs per KiB.",
                "The fit is unweighted over medians; with sizes in powers of two the largest "
                "sizes set the slope. Beyond a size the machine's caches hold, or across a "
                "buffer or segment size, the cost need not stay linear (R² below 0.99 says "
                "so).")],
        })
    if items := dispatcher.series(run):
        found.append({
            "id": f"{anchor}-dispatcher", "kind": "dispatcher", "title": "Dispatcher",
            "lines": items,
            "figures": [_figure(
                f"{anchor}-dispatcher-{index}", f"{item['experiment']}: {item['series']}",
                dispatcher.figure(item),
                "Time per call for each number of registered servants: box p25–p75, red line "
                "the median, whiskers at the minimum and maximum call, dash at p99.",
                "The maximum is a single call and may be a preemption rather than the map; "
                "read it with the p99 and the verdict's rank test.")
                for index, item in enumerate(items)],
        })
    if items := parallelism.series(run):
        found.append({
            "id": f"{anchor}-parallelism", "kind": "parallelism", "title": "Parallelism",
            "lines": items,
            "figures": [_figure(
                f"{anchor}-parallelism-threads", "Per-thread time and system rate against "
                "client threads", parallelism.figure(items),
                "Left: the median time per call as the threads see it. Right: calls per "
                "second of all threads together, the system's invocation rate. Hollow "
                "points: more busy threads than CPUs.",
                "Pinned placements put every thread of an end on one CPU, so there the rate "
                "cannot grow with threads; with unpinned ends it can, up to the CPU count.")],
        })
    if items := background.series(run):
        found.append({
            "id": f"{anchor}-background", "kind": "background", "title": "Background load",
            "lines": items, "versions": background.versions(run),
            "figures": [_figure(
                f"{anchor}-background-load", "Time per call under background CPU load",
                background.figure(items),
                "The median time per call (bar, with p25–p75) and p99 (dash) with no "
                "background load and with N stress-ng CPU workers running beside the cell.",
                "The workers are left to the scheduler while the cell's ends may be pinned: "
                "where a worker lands decides the effect, so a load of fewer workers than "
                "CPUs can fall anywhere between no effect and a shared CPU.")],
        })
    if summary := estimates.table(run):
        figures = []
        if any(row["estimated"] is not None for row in summary["rows"]):
            figures.append(_figure(
                f"{anchor}-estimate-scatter", "Estimated against measured",
                estimates.figure(summary),
                "Each point is one combination of the mixture experiment: its measured median "
                "against the estimate from the single-factor sweeps; the dotted lines are ±10%.",
                "The estimate assumes the factors do not interact; where they exhaust a "
                "shared resource (hollow: more busy threads than CPUs) it is not expected "
                "to hold."))
        found.append({"id": f"{anchor}-estimate", "kind": "estimate",
                      "title": "Combined-factor estimate", "summary": summary,
                      "figures": figures})
    if items := fanout.series(run):
        found.append({
            "id": f"{anchor}-fanout", "kind": "fanout", "title": "Fan-out", "lines": items,
            "figures": [_figure(
                f"{anchor}-fanout-subscribers", "Latency to the last subscriber and events "
                "delivered against subscribers", fanout.figure(items),
                "Left: the median time from the publisher's send to the last subscriber's "
                "reply. Right: events delivered per second, subscribers × events published "
                "per second. Hollow points: more busy threads than CPUs.",
                "The publisher waits for every reply before its next event (a closed loop), "
                "so this is the latency of one event at a time, not the throughput of a "
                "publisher that queues; subscribers in one process share its threads as the "
                "middleware arranges them (the driver's README says how).")],
        })
    if lines := offered_load.series(run):
        found.append({
            "id": f"{anchor}-load", "kind": "load", "title": "Latency against offered load",
            "lines": lines, "rows": offered_load.sustainable_rows(lines, run.saturations),
            "figures": [_figure(
                f"{anchor}-load-rates", "Response time against offered load",
                offered_load.figure(lines),
                "For each driver, the response time of an open loop, from each call's "
                "intended start, against the rate offered: p50 (solid), p99 (dashed) and p99.9 "
                "(dotted), each the median over launches; a line per configuration. The ring "
                "marks the knee: the highest rate before the p99 (the bound's percentile, "
                "where the experiment gives a bound) rises above twice its value at the "
                "lowest rate, or before the achieved rate falls below 95% of the "
                "offered one (the words beside the ring say which); a grey line, the bound the "
                "experiment gives, at its percentile (p99 unless it says otherwise; a bound at "
                "p90 draws the p90 too, dash-dotted).",
                "The lines join measured rates only: the knee lies between the ringed rate "
                "and the next, and a sweep of coarse steps places it coarsely. The far tail "
                "of a low rate rests on few calls.")],
        })
    declared = factorial.designs(run)
    if declared["designs"] or declared["notes"]:
        # Each design's figure sits with its own tables (the template draws it), not at
        # the end of the section, since a run may declare several designs.
        found.append({"id": f"{anchor}-factorial", "kind": "factorial",
                      "title": "Factorial designs", **declared, "figures": []})
    return found


def _figure(figure_id: str, title: str, svg: str, shows: str, limits: str) -> dict:
    return {"id": figure_id, "kind": "factor", "title": title, "svg": svg, "shows": shows,
            "limits": limits}
