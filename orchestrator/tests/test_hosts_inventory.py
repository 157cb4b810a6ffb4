"""The host inventory and the factor `hosts`: what a spec and an inventory may say, and
the errors that name the file, the line and the key (no host is reached here)."""

from pathlib import Path

import pytest

from mwbench.drivers import DriverInfo
from mwbench.hosts.inventory import InventoryError, load_inventory
from mwbench.hosts.topology import Topology, canonical
from mwbench.matrix import MatrixError, expand
from mwbench.spec import SpecError, parse_spec

INVENTORY = """\
hosts:
  lab-a:
    reach: ssh bench@lab-a.example:2222
    checkout: /opt/mwbench
    bind: 10.0.0.1
  lab-b:
    reach: ssh lab-b
    checkout: /opt/mwbench
    build: /opt/mwbench/build-release
    bind: 10.0.0.2
    ssh_config: lab_ssh_config
  ns:
    reach: netns mwbench-test-1
"""


def inventory(tmp_path, text=INVENTORY):
    path = tmp_path / "hosts.yaml"
    path.write_text(text)
    return path


def test_an_inventory_names_how_each_host_is_reached(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    assert list(hosts) == ["local", "lab-a", "lab-b", "ns"]
    a, b = hosts["lab-a"], hosts["lab-b"]
    assert (a.kind, a.target, a.port, a.bind) == ("ssh", "bench@lab-a.example", 2222, "10.0.0.1")
    assert str(a.build) == "/opt/mwbench/build" and a.reach == "ssh bench@lab-a.example:2222"
    assert str(b.build) == "/opt/mwbench/build-release"
    assert b.ssh_config == tmp_path / "lab_ssh_config"
    assert (hosts["ns"].kind, hosts["ns"].target) == ("netns", "mwbench-test-1")
    assert (hosts["local"].kind, hosts["local"].bind) == ("local", "127.0.0.1")


@pytest.mark.parametrize(("entry", "line", "says"), [
    ("reach: ssh -oProxyCommand=evil", 3, "is not a way to reach a host"),
    ("reach: telnet lab", 3, "is not a way to reach a host"),
    ("reach: ssh lab:99999", 3, "port 99999"),
    ("reach: ssh lab\n    bind: lab-a.example", 4, "is not an IPv4 address"),
    ("reach: ssh lab\n    checkout: opt/mwbench", 4, "is not an absolute path"),
    ("reach: ssh lab\n    colour: blue", 4, "Extra inputs are not permitted"),
], ids=["option-as-host", "unknown-kind", "port", "bind", "relative", "unknown-key"])
def test_a_bad_host_entry_is_refused_naming_the_line_and_key(tmp_path, entry, line, says):
    path = inventory(tmp_path, f"hosts:\n  lab:\n    {entry}\n")
    with pytest.raises(InventoryError) as refused:
        load_inventory(path)
    assert str(refused.value).startswith(f"{path}:{line}: hosts.lab."), refused.value
    assert says in str(refused.value)


@pytest.mark.parametrize("bind", ["0.0.0.0", "'::'", "'[::]'", "'0:0::0'", "''", ""],
                         ids=["ipv4-any", "ipv6-any", "ipv6-any-bracketed", "ipv6-any-long",
                              "empty", "missing"])
def test_a_wildcard_bind_is_refused_naming_the_file_host_and_key(tmp_path, bind):
    # The driver contract forbids the wildcard: every cell's server would exit with status 2
    # before publishing its endpoint.
    path = inventory(tmp_path, f"hosts:\n  lab:\n    reach: ssh lab\n    bind: {bind}\n")
    with pytest.raises(InventoryError) as refused:
        load_inventory(path)
    assert str(refused.value).startswith(f"{path}:4: hosts.lab.bind: "), refused.value
    assert "is the wildcard address, which the drivers never bind" in str(refused.value)


def test_a_network_address_given_explicitly_is_bound(tmp_path):
    path = inventory(tmp_path, "hosts:\n  lab:\n    reach: ssh lab\n    bind: 192.0.2.7\n")
    assert load_inventory(path)["lab"].bind == "192.0.2.7"


def test_this_machine_binds_only_an_address_of_its_own(tmp_path):
    # 127.0.0.2 is this machine's (lo holds 127.0.0.0/8); 192.0.2.7 (TEST-NET-1) is not:
    # every cell's server would fail to bind it.
    path = inventory(tmp_path, "hosts:\n  here:\n    reach: local\n    bind: 127.0.0.2\n")
    assert load_inventory(path)["here"].bind == "127.0.0.2"
    path = inventory(tmp_path, "hosts:\n  here:\n    reach: local\n    bind: 192.0.2.7\n")
    with pytest.raises(InventoryError) as refused:
        load_inventory(path)
    assert str(refused.value).startswith(f"{path}:4: hosts.here.bind: 192.0.2.7 is no address "
                                         "of this machine"), refused.value


def test_local_is_this_machine_and_cannot_be_redefined(tmp_path):
    path = inventory(tmp_path, "hosts:\n  local:\n    reach: ssh elsewhere\n")
    with pytest.raises(InventoryError, match=r"hosts.yaml:2: hosts.local: `local` is this"):
        load_inventory(path)


def test_a_level_of_hosts_is_kept_as_text_and_read_back():
    level = canonical({"subscribers": ["b", "c"], "client": "a"})
    assert level == "client=a subscribers=b,c"
    assert canonical(level) == level  # the store's text is a level too
    topology = Topology.of(level)
    assert (topology.client, topology.server) == ("a", "local")
    assert [topology.server_host(i) for i in range(3)] == ["b", "c", "b"]
    assert topology.hosts("remote", fanout=True, processes=3) == ["a", "b", "c"]
    assert Topology.of("lab").hosts("remote", fanout=False, processes=1) == ["lab"]
    assert Topology.of(None) == Topology("local", "local", ("local",))


def test_a_level_puts_deployment_nodes_on_hosts_by_their_names():
    level = canonical({"nodes": {"Sensors": "a", "Display": "b"}, "client": "a"})
    assert level == "client=a nodes=Display:b,Sensors:a"
    assert canonical(level) == level
    topology = Topology.of(level)
    assert topology.nodes == (("Display", "b"), ("Sensors", "a"))
    assert topology.hosts("collocated", fanout=False, processes=1) == ["a", "b"]
    assert topology.deployer("collocated") == "a"
    assert topology.deployer("remote") == "local"  # the server deploys; not named: here


@pytest.mark.parametrize(("level", "says"), [
    ("{clients: a}", "unknown role 'clients'"),
    ("{nodes: [a]}", "nodes: a mapping of nodes' names"),
    ("{nodes: {'A:B': a}}", "'A:B' is not a node's name"),
    ("{nodes: {A: 'a b'}}", "nodes: A: 'a b' is not a host's name"),
    ("{client: '-F/etc/x'}", "is not a host's name"),
    ("{client: [a, b]}", "is not a host's name"),
    ("[]", "a level of hosts is a host's name, or a mapping of roles"),
])
def test_a_bad_level_of_hosts_is_refused_naming_the_line(tmp_path, level, says):
    text = (f"suite: s\nexperiments:\n  - name: e\n    drivers: [rawtcp]\n"
            f"    operation: roundtrip\n    hosts: [{level}]\n")
    with pytest.raises(SpecError) as refused:
        parse_spec(text, "spec.yaml")
    assert "spec.yaml:6: experiments[0].hosts" in str(refused.value)
    assert says in str(refused.value)


RAWTCP = DriverInfo("rawtcp", Path("/x"), True,
                    operations={"roundtrip": {"payload": True}, "fanout": {"payload": True}},
                    modes={"remote": ["tcp", "uds"]}, host_local=("uds",))


def spec_with(hosts: str, extra: str = ""):
    return parse_spec("suite: s\nexperiments:\n  - name: e\n    drivers: [rawtcp]\n"
                      f"    operation: roundtrip\n    hosts: {hosts}\n{extra}", "spec.yaml")


def test_a_host_missing_from_the_inventory_is_an_error_before_anything_runs(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    with pytest.raises(MatrixError, match="no host 'lab-c' in the inventory"):
        expand(spec_with("[{client: lab-a, server: lab-c}]"), {"rawtcp": RAWTCP}, hosts)
    with pytest.raises(MatrixError, match="no host 'lab-a'"):  # no inventory: local only
        expand(spec_with("[lab-a]"), {"rawtcp": RAWTCP})


def test_hosts_that_must_reach_each_other_cannot_bind_loopback(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    with pytest.raises(MatrixError, match="host local binds 127.0.0.1, which the other"):
        expand(spec_with("[{client: local, server: lab-a}]"), {"rawtcp": RAWTCP}, hosts)


def test_a_transport_that_cannot_cross_hosts_is_skipped_across_them(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    matrix = expand(spec_with("[lab-a, {client: lab-a, server: lab-b}]"),
                    {"rawtcp": RAWTCP}, hosts)
    cells = [(cell["transport"], cell["hosts"]) for cell in matrix.configurations]
    assert cells == [("tcp", "lab-a"), ("tcp", "client=lab-a server=lab-b"),
                     ("uds", "lab-a")]
    assert [s.reason for s in matrix.skipped] == [
        "rawtcp's transport uds cannot cross hosts (host_local in its --describe)"]


def test_subscriber_hosts_need_a_process_each(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    spec = parse_spec(
        "suite: s\nexperiments:\n  - name: e\n    drivers: [rawtcp]\n    operation: fanout\n"
        "    transports: tcp\n    subscribers: 2\n    subscriber_processes: [one, each]\n"
        "    hosts: {client: lab-a, subscribers: [lab-a, lab-b]}\n", "spec.yaml")
    matrix = expand(spec, {"rawtcp": RAWTCP}, hosts)
    assert [cell["subscriber_processes"] for cell in matrix.configurations] == ["each"]
    assert "2 subscriber hosts need as many subscriber processes" in matrix.skipped[0].reason


def test_a_one_way_figure_is_refused_across_hosts(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    one_way = DriverInfo("deploy", Path("/x"), True, operations={
        "tick_to_display": {"payload": False, "one_way": True}}, modes={"remote": ["tcp"]})
    spec = parse_spec("suite: s\nexperiments:\n  - name: e\n    drivers: [deploy]\n"
                      "    operation: tick_to_display\n"
                      "    hosts: [lab-a, {client: lab-a, server: lab-b}]\n", "spec.yaml")
    matrix = expand(spec, {"deploy": one_way}, hosts)
    assert [cell["hosts"] for cell in matrix.configurations] == ["lab-a"]
    assert "needs synchronised clocks" in matrix.skipped[0].reason


DEPLOY = DriverInfo("deploy", Path("/x"), True, operations={"assembly": {"payload": False}},
                    modes={"collocated": ["inproc"]}, options={"nodes": "FILE"},
                    nodes={"option": "nodes", "argv": ["/b/mwccm-node", "{name}",
                                                       "{reference_file}"]})


def nodes_spec(hosts: str, driver: str = "deploy"):
    return parse_spec(f"suite: s\nexperiments:\n  - name: e\n    drivers: [{driver}]\n"
                      f"    operation: assembly\n    modes: collocated\n    hosts: {hosts}\n",
                      "spec.yaml")


def test_nodes_go_to_hosts_of_the_inventory_that_can_reach_each_other(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    matrix = expand(nodes_spec("{client: lab-a, nodes: {Sensors: lab-a, Display: lab-b}}"),
                    {"deploy": DEPLOY}, hosts)
    assert [cell["hosts"] for cell in matrix.configurations] == [
        "client=lab-a nodes=Display:lab-b,Sensors:lab-a"]
    with pytest.raises(MatrixError, match="no host 'lab-c' in the inventory"):
        expand(nodes_spec("{client: lab-a, nodes: {Display: lab-c}}"), {"deploy": DEPLOY}, hosts)
    with pytest.raises(MatrixError, match="host local binds 127.0.0.1"):
        expand(nodes_spec("{nodes: {Display: lab-b}}"), {"deploy": DEPLOY}, hosts)


def test_a_driver_without_nodes_cannot_be_given_their_hosts(tmp_path):
    hosts = load_inventory(inventory(tmp_path))
    plain = DriverInfo("plain", Path("/x"), True, operations={"assembly": {"payload": False}},
                       modes={"collocated": ["inproc"]})
    matrix = expand(nodes_spec("{client: lab-a, nodes: {Display: lab-b}}", "plain"),
                    {"plain": plain}, hosts)
    assert matrix.configurations == []
    assert "plain deploys no component application on nodes" in matrix.skipped[0].reason


def test_a_spec_names_its_inventory_and_the_command_line_overrides_it(tmp_path):
    from mwbench.runner import hosts_used, plan

    (tmp_path / "lab.yaml").write_text(INVENTORY)
    (tmp_path / "other.yaml").write_text("hosts:\n  lab-a:\n    reach: ssh elsewhere\n")
    spec = tmp_path / "spec.yaml"
    spec.write_text("suite: s\ninventory: lab.yaml\nexperiments:\n  - name: e\n"
                    "    drivers: [rawtcp]\n    operation: roundtrip\n    transports: [tcp]\n"
                    "    hosts: [{client: lab-a, server: lab-b}]\n")
    *_, matrix, inventory = plan(spec)
    assert inventory["lab-a"].target == "bench@lab-a.example"
    if matrix.cells:  # rawtcp built
        assert hosts_used(matrix) == ["lab-a", "lab-b"]
    with pytest.raises(MatrixError, match="no host 'lab-b' in the inventory"):
        plan(spec, tmp_path / "other.yaml")


def test_mwbench_run_refuses_a_bad_inventory_before_anything_runs(tmp_path):
    from click.testing import CliRunner

    from mwbench.cli import main

    (tmp_path / "bad.yaml").write_text("hosts:\n  lab:\n    reach: rsh lab\n")
    (tmp_path / "spec.yaml").write_text("suite: s\nexperiments:\n  - name: e\n"
                                        "    drivers: [rawtcp]\n    operation: roundtrip\n")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "spec.yaml"), "--db",
                                       str(tmp_path / "m.db"), "--inventory",
                                       str(tmp_path / "bad.yaml")])
    assert result.exit_code == 2
    assert f"{tmp_path / 'bad.yaml'}:3: hosts.lab.reach: 'rsh lab' is not a way" in result.output
    assert not (tmp_path / "m.db").exists()


@pytest.mark.parametrize("verb", ["run", "plan", "env", "clean"])
def test_every_verb_refuses_a_wildcard_bind_before_anything_runs(tmp_path, verb):
    from click.testing import CliRunner

    from mwbench.cli import main

    bad = tmp_path / "wild.yaml"
    bad.write_text("hosts:\n  lab:\n    reach: ssh lab\n    bind: 0.0.0.0\n")
    spec = tmp_path / "spec.yaml"
    spec.write_text("suite: s\nexperiments:\n  - name: e\n    drivers: [rawtcp]\n"
                    "    operation: roundtrip\n")
    db = ["--db", str(tmp_path / "m.db")] if verb in ("run", "plan") else []
    args = [verb, *([str(spec)] if verb in ("run", "plan") else []), *db, "--inventory", str(bad)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        f"mwbench {verb}: {bad}:4: hosts.lab.bind: '0.0.0.0' is the wildcard address, which "
        "the drivers never bind: give this host's address on the network the other hosts "
        "reach (e.g. 10.0.0.1), or leave `bind` out for 127.0.0.1"]
    assert not (tmp_path / "m.db").exists()


@pytest.mark.parametrize(("nodes", "says"), [
    ({"option": "nodes", "argv": ["/b/node", "{name}", "{reference_file}"]}, None),
    ([], "nodes is not an object"),
    ({"argv": ["/b/node", "{name}", "{reference_file}"]}, "nodes.option"),
    ({"option": "nodes", "argv": ["node", "{name}", "{reference_file}"]}, "not an absolute"),
    ({"option": "nodes", "argv": ["/b/node", "{name}"]}, "no argument {reference_file}"),
    ({"option": "nodes", "argv": ["/b/node", "{name}", "{reference_file}"],
      "path_options": {"artifacts": 1}}, "nodes.path_options"),
])
def test_a_drivers_description_of_its_nodes_is_checked(nodes, says):
    from mwbench.hosts.nodes import validate

    problem = validate(nodes)
    assert problem == says if says is None else says in problem
