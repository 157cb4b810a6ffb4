"""What a spec's reader says beyond "invalid": the closest known key or value (did you
mean), with file and line, and the old names of the Unix-domain socket read as `uds`."""


import pytest
from click.testing import CliRunner

from conftest import driver_built, spec_refusal, write_spec
from mwbench.cli import main
from mwbench.spec import load_spec

write = write_spec
refusal = spec_refusal


def test_an_unknown_key_names_the_closest_known_one(tmp_path):
    path = write(tmp_path, """\
        suite: s
        defaults: {samples: 10, placment: same-cpu}
        experiments:
          - {name: e, operation: ping, drivers: rawtcp}
        """)
    assert f"{path}:2: defaults.placment: unknown key (did you mean 'placement'?)" \
        in refusal(path)


# An unknown word (placement: cross) is named with the closest too: test_spec.py.
def test_nothing_close_suggests_nothing(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - {name: e, operation: ping, drivers: rawtcp, zzzzzz: 1}
        """)
    assert "did you mean" not in refusal(path)


def test_the_old_names_of_the_unix_domain_socket_are_read_as_uds_with_a_note(tmp_path):
    path = write(tmp_path, """\
        suite: s
        defaults: {transports: ipc}
        experiments:
          - name: e
            operation: ping
            drivers: [omniorb, zmq, rawtcp]
            transports: [tcp, unix, uds]
          - {name: f, operation: ping, drivers: zmq}
        """)
    spec, _ = load_spec(path)
    assert spec.experiments[0].transports == ["tcp", "uds"]  # one cell, not two
    assert spec.defaults.transports == ["uds"]
    assert spec.notes == [
        f"{path}:2: note: transport 'ipc' is now called 'uds' (a Unix-domain socket, in "
        "every driver); read as such",
        f"{path}:7: note: transport 'unix' is now called 'uds' (a Unix-domain socket, in "
        "every driver); read as such"]


@pytest.mark.skipif(not driver_built("rawtcp"), reason="rawtcp driver not built")
def test_an_unknown_transport_is_named_with_its_line_and_the_closest_one(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: roundtrip
            drivers: rawtcp
            transports: [tcp,
                         udss]
        """)
    result = CliRunner().invoke(main, ["plan", str(path), "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"mwbench plan: {path}:7: experiment 'e': unknown transport 'udss' (did you mean "
        "'uds'?)")
