"""The report's disclosure names the JVMs the Java driver ran on, with their flags."""

from mwbench.report.disclosure import jvm_facts


def _cell(heap_mib: int, collectors=("Copy", "MarkSweepCompact")) -> dict:
    jvm = {"vm_name": "OpenJDK 64-Bit Server VM", "runtime_version": "17.0.15+6",
           "collectors": list(collectors), "max_heap_bytes": heap_mib << 20,
           "input_arguments": [f"-Xms{heap_mib}m", f"-Xmx{heap_mib}m", "-XX:+UseSerialGC",
                               f"-XX:ErrorFile=/tmp/cell-{heap_mib}/hs_err_%p.log",
                               "-Dmwbench.orb.versions=jacorb=3.9"]}
    return {"measurer_header": {"middleware_config": {"jvm": jvm}}, "server_header": None}


def test_one_line_per_jvm_and_flags_with_the_heap_as_a_range():
    cells = [_cell(257), _cell(300), {"measurer_header": {"middleware_config": {}}}]
    assert jvm_facts(cells) == [(
        "JVM", "OpenJDK 64-Bit Server VM 17.0.15+6; collectors Copy + MarkSweepCompact; "
               "fixed heap 257-300 MiB (-Xms = -Xmx); flags -XX:+UseSerialGC")]


def test_another_collector_is_another_line_and_cpp_cells_none():
    assert len(jvm_facts([_cell(257), _cell(257, ("G1 Young Generation",))])) == 2
    assert jvm_facts([{"measurer_header": {"rusage": {}}, "server_header": None}]) == []
