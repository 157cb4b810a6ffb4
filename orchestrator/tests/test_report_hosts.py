"""The report of a run across hosts: every host disclosed, and a warning when they
differ or could not be asked (hosts/disclosure.py)."""

from conftest import store_cells
from mwbench.report import build_report
from mwbench.store import Store


def host(kernel: str, cpus: int) -> dict:
    return {"reach": "ssh lab", "checkout": "/opt/mwbench", "build": "/opt/mwbench/build",
            "bind": "10.0.0.1", "error": None,
            "environment": {"kernel": {"release": kernel}, "mwbench_version": "0.1.0",
                            "machine": {"hostname": "lab", "cpu_model": "Xeon",
                                        "cpu_count": cpus},
                            "git": {"commit": "abc"}}}


def test_every_host_is_disclosed_and_differences_are_warned_about(tmp_path):
    hosts = {"lab-a": host("6.1.0", 8), "lab-b": host("6.5.0", 8),
             "lab-c": {"reach": "ssh lab-c", "checkout": "/x", "build": "/x/build",
                       "bind": "10.0.0.3", "environment": None,
                       "error": "host lab-c (ssh lab-c): Permission denied (publickey)."}}
    run_id = store_cells(tmp_path / "m.db", [
        {"samples_ns": [20_000] * 50, "hosts": "client=lab-a server=lab-b"},
        {"samples_ns": [14_000] * 50, "hosts": "lab-a"}], hosts=hosts)
    store = Store.open_existing(tmp_path / "m.db")
    html = build_report(store, [run_id])
    store.close()
    assert "host lab-a" in html and "ssh lab, drivers bound to 10.0.0.1" in html
    assert "the hosts differ in kernel: lab-a: 6.1.0; lab-b: 6.5.0" in html
    assert "CPU count" not in html  # the same on both
    assert "Hosts lab-c could not be asked what they are" in html
    assert "on client=lab-a server=lab-b" in html and "on lab-a" in html  # the labels
