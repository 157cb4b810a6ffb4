"""Deployment nodes on other hosts (the role `nodes` of the factor `hosts`), over real
SSH into test hosts: the deploy driver assembles Basic SP's two-node plan with node
Display on another host (and Sensors too, or Sensors on its own host), and calls the
assembled application from a client; a node the plan lacks, a static assembly, and a
node that cannot start fail their cells, naming why. Nothing is left on any host.

Needs root (namespaces), Debian's openssh-server and the deploy driver.
"""

import json

import pytest
from test_hosts_ssh import assert_nothing_left, run_mwbench, stored

from mwbench.drivers import program_path
from testsupport import testhosts

pytestmark = [
    pytest.mark.skipif(testhosts.unavailable() is not None,
                       reason=str(testhosts.unavailable())),
    pytest.mark.skipif(not program_path("deploy").is_file(), reason="deploy is not built"),
]

PLAN = "basic_sp_four_processes_two_nodes"  # nodes Sensors (RateGen, GPS), Display
BOTH = "{client: host-1, nodes: {Sensors: host-1, Display: host-2}}"
DISPLAY = "{client: host-1, nodes: {Display: host-2}}"

SPEC = f"""\
suite: nodes
defaults: {{launches: 1, warmup: 2, samples: 3, placement: same-cpu, timeout_s: 300}}
experiments:
  - {{name: assembly, drivers: [deploy], operation: assembly, modes: collocated, batch: 1,
      options: {{plan: {PLAN}}}, hosts: [{BOTH}, {DISPLAY}]}}
  - {{name: roundtrip, drivers: [deploy], operation: roundtrip, modes: remote,
      transports: tcp, warmup: 100, samples: 200, options: {{plan: {PLAN}}},
      hosts: [{{client: host-1, server: host-1, nodes: {{Display: host-2}}}}]}}
  - {{name: ghost, drivers: [deploy], operation: assembly, modes: collocated, batch: 1,
      options: {{plan: {PLAN}}}, hosts: [{{client: host-1, nodes: {{Ghost: host-2}}}}]}}
  - {{name: static, drivers: [deploy], operation: assembly, modes: collocated, batch: 1,
      options: {{plan: {PLAN}, assembly: static}}, hosts: [{DISPLAY}]}}
  - {{name: broken, drivers: [deploy], operation: assembly, modes: collocated, batch: 1,
      options: {{plan: {PLAN}, artifacts: /nonexistent/artifacts}}, hosts: [{DISPLAY}]}}
"""


def test_a_plan_is_assembled_and_called_with_its_nodes_on_other_hosts(tmp_path):
    with testhosts.ssh_hosts(2) as hosts:
        run = run_mwbench(tmp_path, SPEC, hosts.inventory)
        assert_nothing_left(hosts)
    assert run.returncode == 1, run.stdout + run.stderr  # the failed cells, after the rest
    rows = {row["experiment"] + " " + row["hosts"]: row for row in stored(
        tmp_path, "SELECT experiment, hosts, status, error, measurer_header, server_header "
                  "FROM cells ORDER BY id")}
    ok = {key: row for key, row in rows.items() if row["status"] == "ok"}
    assert sorted(ok) == [
        "assembly client=host-1 nodes=Display:host-2",
        "assembly client=host-1 nodes=Display:host-2,Sensors:host-1",
        "roundtrip client=host-1 server=host-1 nodes=Display:host-2"], rows

    # The driver deployed through the nodes the orchestrator started, and started the others.
    def elsewhere(key, header="measurer_header"):
        return json.loads(ok[key][header])["middleware_config"].get("nodes_elsewhere")
    assert elsewhere("assembly client=host-1 nodes=Display:host-2,Sensors:host-1") == [
        "Display", "Sensors"]
    assert elsewhere("assembly client=host-1 nodes=Display:host-2") == ["Display"]
    assert elsewhere("roundtrip client=host-1 server=host-1 nodes=Display:host-2",
                     "server_header") == ["Display"]

    errors = {row["experiment"]: row["error"] for row in rows.values()
              if row["status"] != "ok"}
    assert "node 'Ghost' is not a node of plan" in errors["ghost"]
    assert "static assembly runs the compiled plan in one program" in errors["static"]
    assert "deployment node Display on host host-2" in errors["broken"]
    assert "/nonexistent/artifacts" in errors["broken"]  # the node's own words
