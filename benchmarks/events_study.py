"""The figures of docs/performance.md's container-managed pub/sub section, from a
stored run of suites/events.yaml: per configuration, the median over launches of
each launch's median latency (a launch is a new set of processes, which on this
machine can settle at another level) and of its events delivered per second (N x
events published per second), then three targets, each ratio taken launch by launch
with its 95% interval (paired.py):

- the component layer against the same delivery used directly by plain objects
  (layer=component / layer=object), collocated and across processes: <= 1.10;
- collocated channel delivery of 64 KiB events to 16 subscribers against one: <= 2;
- N subscribers in one other process, channel against direct delivery: events per
  second gained >= 0.8 N, for N = 2 to 16;

and the raw fan-out (rawtcp) of the same run for every N and payload.

    .venv/bin/python benchmarks/events_study.py results/events.db [--run N]
"""

from collections import defaultdict
from statistics import median

import numpy as np
from paired import launches_by, open_run, ratio, study_arguments, text

from mwbench.store import Store


def key_of(cell: dict) -> tuple | None:
    """(driver, layer, delivery, transport, N, payload) of a fan-out cell."""
    if cell["operation"] != "fanout":
        return None
    return (cell["driver"], cell["layer"], cell["delivery"], cell["transport"],
            cell["subscribers"] or 1, cell["payload_bytes"])


def rates_by(store: Store, run_id: int) -> dict[tuple, dict[int, np.ndarray]]:
    """key_of(cell) -> {launch: events delivered per second}, as one-value arrays, for
    ratios taken launch by launch."""
    found: dict[tuple, dict[int, np.ndarray]] = defaultdict(dict)
    for cell in store.cells(run_id):
        key = key_of(cell) if cell["status"] == "ok" else None
        if key is not None:
            found[key][cell["launch"]] = np.array([key[4] * cell["throughput_per_s"]])
    return dict(found)


def configurations(store: Store, run_id: int) -> dict[tuple, tuple[float, float]]:
    """(driver, layer, delivery, transport, N, payload) -> (median µs, events/s)."""
    per_launch = defaultdict(list)
    for cell in store.cells(run_id):
        if cell["status"] != "ok" or cell["operation"] != "fanout":
            continue
        n = cell["subscribers"] or 1
        key = (cell["driver"], cell["layer"], cell["delivery"], cell["transport"], n,
               cell["payload_bytes"])
        per_launch[key].append((cell["p50_us"], n * cell["throughput_per_s"]))
    return {key: (median(v[0] for v in values), median(v[1] for v in values))
            for key, values in per_launch.items()}


def table(figures: dict) -> list[str]:
    lines = ["| driver | layer | delivery | transport | N | payload B | median µs | events/s |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for key, (latency, rate) in sorted(figures.items(), key=lambda item: str(item[0])):
        driver, layer, delivery, transport, n, payload = key
        lines.append(f"| {driver} | {layer or ''} | {delivery or ''} | {transport} | {n} | "
                     f"{payload} | {latency:,.2f} | {rate:,.0f} |")
    return lines


def by_payload(figures: dict) -> list[str]:
    """(a): collocated, one subscriber, median µs against payload."""
    rows = defaultdict(dict)
    for (_, layer, delivery, transport, n, payload), (latency, _) in figures.items():
        if transport == "inproc" and n == 1:
            rows[(layer, delivery)][payload] = latency
    payloads = sorted({p for row in rows.values() for p in row})
    lines = ["| layer, delivery | " + " | ".join(f"{p} B" for p in payloads) + " |",
             "| --- |" + " ---: |" * len(payloads)]
    for (layer, delivery), row in sorted(rows.items()):
        lines.append(f"| {layer}, {delivery} | " +
                     " | ".join(f"{row[p]:,.2f}" if p in row else "" for p in payloads) + " |")
    return lines


def by_subscribers(figures: dict, remote: bool) -> list[str]:
    """(b) collocated or (c) across processes: median µs against N, and events/s at N=16."""
    rows = defaultdict(dict)
    for (driver, layer, delivery, transport, n, payload), values in figures.items():
        if (transport != "inproc") == remote:
            name = f"{driver}" if driver != "ccmevents" else f"{layer}, {delivery}"
            rows[(name, transport, payload)][n] = values
    counts = sorted({n for row in rows.values() for n in row})
    lines = ["| configuration | transport | payload B | " +
             " | ".join(f"N={n}" for n in counts) + " | events/s at 16 |",
             "| --- | --- | ---: |" + " ---: |" * (len(counts) + 1)]
    for (name, transport, payload), row in sorted(rows.items()):
        if len(row) < 2:
            continue  # one N only: case (a)'s
        rate = f"{row[16][1]:,.0f}" if 16 in row else ""
        lines.append(f"| {name} | {transport} | {payload} | " +
                     " | ".join(f"{row[n][0]:,.2f}" if n in row else "" for n in counts) +
                     f" | {rate} |")
    return lines


def layer_ratios(launches: dict) -> list[str]:
    """component/object per delivery and transport, launch by launch, with intervals."""
    ratios = {}
    for (driver, layer, delivery, transport, n, payload), mine in launches.items():
        other = launches.get((driver, "object", delivery, transport, n, payload))
        if layer == "component" and other:
            ratios[(delivery, transport, n, payload)] = ratio(mine, other, key=(delivery,
                                                                                 transport, n))
    lines = []
    for delivery in ("direct", "channel", "dds"):
        for where in ("inproc", "iiop", "udp", "dds"):
            found = {k: r for k, r in ratios.items()
                     if k[0] == delivery and k[1] == where and r is not None}
            if found:
                worst = max(found, key=lambda k: found[k].value)
                values = [r.value for r in found.values()]
                same = sum(r.includes(1.0) for r in found.values())
                lines.append(f"- {delivery} {where}: component/object median "
                             f"{median(values):.2f}, range {min(values):.2f}-{max(values):.2f} "
                             f"over {len(found)} configurations ({same} indistinguishable from "
                             f"1); worst at N={worst[2]}, {worst[3]} B: {text(found[worst])}; "
                             "target <= 1.10")
    return lines


def shared_copy(launches: dict) -> list[str]:
    lines = []
    for layer in ("component", "object"):
        one = launches.get(("ccmevents", layer, "channel", "inproc", 1, 65536))
        sixteen = launches.get(("ccmevents", layer, "channel", "inproc", 16, 65536))
        if one and sixteen:
            lines.append(f"- {layer}, channel, collocated, 64 KiB: 16 subscribers against one: "
                         f"{text(ratio(sixteen, one, key=layer), 1)} (target <= 2)")
    return lines


def federation_gain(rates: dict) -> list[str]:
    """Events per second of a channel or dds delivery against direct, launch by launch."""
    lines = []
    for (driver, layer, delivery, transport, n, payload), mine in sorted(
            rates.items(), key=lambda item: str(item[0])):
        direct = rates.get((driver, layer, "direct", "iiop", n, payload))
        if delivery == "direct" or transport == "inproc" or not direct or n < 2:
            continue
        gain = ratio(mine, direct, key=(layer, delivery, transport, n, payload))
        lines.append(f"- {layer} {delivery} {transport}, N={n}, {payload} B: events/s against "
                     f"direct {text(gain, 1)} (target >= {0.8 * n:.1f})")
    return lines


def main() -> None:
    parser = study_arguments(__doc__)
    parser.add_argument("--all", action="store_true", help="every configuration, one per row")
    args = parser.parse_args()
    store, run_id = open_run(args)
    figures = configurations(store, run_id)
    launches = launches_by(store, run_id, key_of)
    if args.all:
        print("\n".join(table(figures)))
    print("\n### (a) collocated, one subscriber, median µs against payload\n")
    print("\n".join(by_payload(figures)))
    print("\n### (b) collocated, median µs against N\n")
    print("\n".join(by_subscribers(figures, remote=False)))
    print("\n### (c, d) N subscribers in one other process, median µs against N\n")
    print("\n".join(by_subscribers(figures, remote=True)))
    print("\n### the component layer against plain objects\n")
    print("\n".join(layer_ratios(launches)))
    print("\n### a shared copy: 64 KiB to 16 subscribers against one\n")
    print("\n".join(shared_copy(launches)))
    print("\n### federation: N subscribers in one other process\n")
    print("\n".join(federation_gain(rates_by(store, run_id))))


if __name__ == "__main__":
    main()
