"""The figures of docs/performance.md's container-managed pub/sub section, from a
stored run of suites/events.yaml: per configuration, the median over repetitions of
each repetition's median latency (a repetition is a new set of processes, which on
this machine can settle at another level) and of its events delivered per second
(N x events published per second), then the issue's three targets:

- the component layer against the same delivery used directly by plain objects
  (layer=component / layer=object), collocated and across processes: <= 1.10;
- collocated channel delivery of 64 KiB events to 16 subscribers against one: <= 2;
- N subscribers in one other process, channel against direct delivery: events per
  second gained >= 0.8 N, for N = 2 to 16;

and the raw fan-out (rawtcp) of the same run for every N and payload.

    .venv/bin/python benchmarks/events_study.py results/events.db [--run N]
"""

import argparse
from collections import defaultdict
from statistics import median

from mwbench.store import Store


def configurations(store: Store, run_id: int) -> dict[tuple, tuple[float, float]]:
    """(driver, layer, delivery, transport, N, payload) -> (median µs, events/s)."""
    per_repetition = defaultdict(list)
    for cell in store.cells(run_id):
        if cell["status"] != "ok" or cell["operation"] != "fanout":
            continue
        n = cell["subscribers"] or 1
        key = (cell["driver"], cell["layer"], cell["delivery"], cell["transport"], n,
               cell["payload_bytes"])
        per_repetition[key].append((cell["p50_us"], n * cell["throughput_per_s"]))
    return {key: (median(v[0] for v in values), median(v[1] for v in values))
            for key, values in per_repetition.items()}


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


def layer_ratios(figures: dict) -> list[str]:
    ratios = {}
    for (driver, layer, delivery, transport, n, payload), (latency, _) in figures.items():
        other = figures.get((driver, "object", delivery, transport, n, payload))
        if layer == "component" and other:
            ratios[(delivery, transport, n, payload)] = latency / other[0]
    lines = []
    for delivery in ("direct", "channel", "dds"):
        for where in ("inproc", "iiop", "udp", "dds"):
            found = {k: r for k, r in ratios.items() if k[0] == delivery and k[1] == where}
            if found:
                worst = max(found, key=found.get)
                lines.append(f"- {delivery} {where}: component/object median "
                             f"{median(found.values()):.2f}, range {min(found.values()):.2f}-"
                             f"{max(found.values()):.2f} (worst at N={worst[2]}, "
                             f"{worst[3]} B) over {len(found)} configurations; target <= 1.10")
    return lines


def shared_copy(figures: dict) -> list[str]:
    lines = []
    for layer in ("component", "object"):
        one = figures.get(("ccmevents", layer, "channel", "inproc", 1, 65536))
        sixteen = figures.get(("ccmevents", layer, "channel", "inproc", 16, 65536))
        direct = figures.get(("ccmevents", layer, "direct", "inproc", 16, 65536))
        if one and sixteen:
            lines.append(f"- {layer}, channel, collocated, 64 KiB: 16 subscribers "
                         f"{sixteen[0]:,.2f} µs, one {one[0]:,.2f} µs: {sixteen[0] / one[0]:.1f}x "
                         f"(target <= 2); direct to 16: {direct[0]:,.1f} µs" if direct else "")
    return lines


def federation_gain(figures: dict) -> list[str]:
    lines = []
    for (driver, layer, delivery, transport, n, payload), (_, rate) in sorted(
            figures.items(), key=lambda item: str(item[0])):
        direct = figures.get((driver, layer, "direct", "iiop", n, payload))
        if delivery == "direct" or transport == "inproc" or not direct or n < 2:
            continue
        gain = rate / direct[1]
        lines.append(f"- {layer} {delivery} {transport}, N={n}, {payload} B: {rate:,.0f} events/s "
                     f"against direct {direct[1]:,.0f}: {gain:.1f}x (target >= {0.8 * n:.1f})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--run", type=int, help="the run (default: the latest)")
    parser.add_argument("--all", action="store_true", help="every configuration, one per row")
    args = parser.parse_args()
    store = Store.open_existing(args.db)
    figures = configurations(store, args.run or store.latest_run_id())
    if args.all:
        print("\n".join(table(figures)))
    print("\n### (a) collocated, one subscriber, median µs against payload\n")
    print("\n".join(by_payload(figures)))
    print("\n### (b) collocated, median µs against N\n")
    print("\n".join(by_subscribers(figures, remote=False)))
    print("\n### (c, d) N subscribers in one other process, median µs against N\n")
    print("\n".join(by_subscribers(figures, remote=True)))
    print("\n### the component layer against plain objects\n")
    print("\n".join(layer_ratios(figures)))
    print("\n### a shared copy: 64 KiB to 16 subscribers against one\n")
    print("\n".join(shared_copy(figures)))
    print("\n### federation: N subscribers in one other process\n")
    print("\n".join(federation_gain(figures)))


if __name__ == "__main__":
    main()
