"""A stand-in driver that writes a broken result file on purpose (test_broken_results.py).

It speaks the driver contract's arguments and `--describe`, offers one
collocated operation, and writes the result file that `--option broken=CASE`
names: each case is one way a real driver, a bug or a hostile program could
break the file. `broken=none` writes a valid file.

With `--option named=phases` it writes, like the deploy driver, named series
(the phases of an assembly, some parts of others) and a footprint in
`middleware_config`, from known numbers (test_phases_integration.py): a
dynamic `--option assembly=...` takes three times as long as a static one;
`named=overlapping` makes the parts of `total` add up to more than it.
"""

import json
import os
import sys

HEADER = {"batch_size": 1, "clock": {"read_cost_ns": 20.0, "resolution_ns": 1,
                                     "source": "CLOCK_MONOTONIC"},
          "contract": 1, "driver": "standin", "measured_wall_ns": 1000,
          "middleware": "none", "middleware_version": "0", "operation": "roundtrip",
          "options": {}, "payload_bytes": 0, "role": "collocated",
          "process": {"cpu_first": 0, "cpu_last": 0, "cpu_requested": None, "pid": 1,
                      "policy": "SCHED_OTHER", "priority": 0},
          "rusage": {"involuntary_switches": 0, "max_rss_kb": 1, "system_us": 0, "user_us": 0,
                     "voluntary_switches": 0},
          "sample_count": 0, "sample_unit": "ns", "servants": 1, "threads": 1,
          "transport": "inproc", "warmup": 10}

DESCRIPTION = {"contract": 1, "driver": "standin", "middleware": "none",
               "middleware_version": "0", "max_servants": 1, "max_threads": 1,
               "modes": {"collocated": ["inproc"]},
               "operations": {"roundtrip": {"payload": False}},
               "options": {"broken": "which broken result file to write",
                           "named": "phases | overlapping: write named series",
                           "assembly": "static | dynamic (with named series)"}}

# The phases of one assembly, in ns, and the series each is a part of (None: a root).
PHASES = {"plan_parsing": (100_000, "total"), "home_creation": (400_000, "total"),
          "library_load": (300_000, "home_creation"), "registration": (200_000, "total"),
          "registration_publish": (50_000, "registration"), "total": (None, None),
          "teardown": (250_000, None)}
UNACCOUNTED_NS = 30_000  # the time of `total` that no phase accounts for
FOOTPRINT = {"processes": [{"role": "component host", "program": "mwccm-component-server",
                            "files": ["/usr/lib/libomniORB4.so"], "disk_bytes": 5 << 20,
                            "peak_rss_kb": 9000}],
             "disk_bytes": 5 << 20, "peak_rss_kb": 9000}


def result(samples: int, **changes) -> bytes:
    header = {**HEADER, "options": OPTIONS, "sample_count": samples, **changes}
    lines = ["mwbench-result 1", json.dumps(header, sort_keys=True),
             *(str(1000 + i) for i in range(samples)), "end"]
    return ("\n".join(lines) + "\n").encode()


def phases(samples: int, kind: str) -> bytes:
    """A result whose samples are assemblies and teardowns with their phases as named
    series; sample i takes i ns longer in every phase, so min, max and mean are known."""
    scale = 3 if OPTIONS.get("assembly") == "dynamic" else 1
    values = {name: [scale * base + i for i in range(samples)]
              for name, (base, _) in PHASES.items() if base is not None}
    parts = [name for name, (_, whole) in PHASES.items() if whole == "total"]
    extra = -sum(values[p][0] for p in parts) // 5 if kind == "overlapping" else UNACCOUNTED_NS
    values["total"] = [sum(values[p][i] for p in parts) + scale * extra for i in range(samples)]
    ordered = {name: values[name] for name in PHASES}
    entries = [{"name": name, "count": samples, **({"part_of": whole} if whole else {})}
               for name, (_, whole) in PHASES.items()]
    config = {"assembly": OPTIONS.get("assembly", "dynamic"), "plan": "standin.cdp",
              "footprint": FOOTPRINT}
    header = {**HEADER, "options": OPTIONS, "sample_count": samples, "named_series": entries,
              "middleware_config": config, "operation": "roundtrip"}
    lines = ["mwbench-result 1", json.dumps(header, sort_keys=True),
             *(str(values["total"][i] + values["teardown"][i]) for i in range(samples))]
    for name, series in ordered.items():
        lines += [f"series {name}", *map(str, series)]
    return ("\n".join([*lines, "end"]) + "\n").encode()


def with_header_text(text: str, samples: int) -> bytes:
    return ("mwbench-result 1\n" + text + "\n"
            + "".join(f"{1000 + i}\n" for i in range(samples)) + "end\n").encode()


def write(case: str, path: str, samples: int) -> None:
    valid = result(samples).decode()
    files = {
        "none": result(samples),
        "random-bytes": os.urandom(4096),
        "invalid-utf8": valid.replace('"none"', '"n\udcff"', 1).encode("utf-8", "surrogateescape"),
        "sample-count-text": valid.replace(f'"sample_count": {samples}',
                                           '"sample_count": "abc"').encode(),
        "sample-count-null": valid.replace(f'"sample_count": {samples}',
                                           '"sample_count": null').encode(),
        "sample-count-1e400": valid.replace(f'"sample_count": {samples}',
                                            '"sample_count": 1e400').encode(),
        "batch-size-text": result(samples, batch_size="x"),
        "batch-size-zero": result(samples, batch_size=0),
        "batch-size-negative": result(samples, batch_size=-1),
        "wall-text": result(samples, measured_wall_ns="x"),
        "sample-above-int64": valid.replace("\n1000\n", "\n9223372036854775808\n").encode(),
        "more-samples-than-asked": result(samples * 2),
        "deep-json": with_header_text("[" * 100_000, samples),
        "named-series-cycle": phases(samples, "phases").replace(
            b'"name": "total"}', b'"name": "total", "part_of": "library_load"}', 1),
    }
    if case == "twenty-million-samples":
        # The header announces 20 million samples and the file is as long as they would
        # be (sparse: nothing is written), for a cell that asked for `samples`.
        with open(path, "wb") as out:
            out.write(result(0).decode().replace('"sample_count": 0',
                                                 '"sample_count": 20000000').encode())
            out.truncate(20_000_000 * 8)
        return
    if case == "fifo":
        os.mkfifo(path)
        return
    with open(path, "wb") as out:
        out.write(files[case])


OPTIONS: dict = {}  # the --option settings, echoed in the header as a driver does


def main(argv: list[str]) -> int:
    if "--describe" in argv:
        print(json.dumps(DESCRIPTION))
        return 0
    options = dict(value.split("=", 1) for flag, value in zip(argv, argv[1:], strict=False)
                   if flag == "--option")
    OPTIONS.update(options)
    output, samples = argv[argv.index("--output") + 1], int(argv[argv.index("--samples") + 1])
    if "named" in options:
        with open(output, "wb") as out:
            out.write(phases(samples, options["named"]))
        return 0
    write(options.get("broken", "none"), output, samples)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
