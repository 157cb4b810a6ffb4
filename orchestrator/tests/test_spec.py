"""Spec validation: valid specs load, and every error names file, line and key."""

import textwrap

import pytest

from mwbench.spec import SpecError, effective_settings, load_spec

VALID = """\
suite: quick
defaults: {warmup: 1000, samples: 20000, repetitions: 1, placement: same-cpu, idle_hold: true}
experiments:
  - name: ping
    operation: roundtrip
    drivers: [rawtcp, omniorb]
    transports: [tcp, uds, unix]
    modes: [remote, collocated]
    payload_bytes: [0]
"""


def write(tmp_path, text):
    path = tmp_path / "spec.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_the_documented_example_loads(tmp_path):
    spec, text = load_spec(write(tmp_path, VALID))
    assert spec.suite == "quick"
    assert text == VALID
    experiment = spec.experiments[0]
    assert experiment.drivers == ["rawtcp", "omniorb"]
    assert experiment.modes == ["remote", "collocated"]


def test_scalars_become_one_element_lists(tmp_path):
    spec, _ = load_spec(write(tmp_path, """\
        suite: s
        experiments:
          - {name: e, operation: ping, drivers: rawtcp, placement: cross-cpu, payload_bytes: 8}
        """))
    experiment = spec.experiments[0]
    assert experiment.drivers == ["rawtcp"]
    assert experiment.placement == ["cross-cpu"]
    assert experiment.payload_bytes == [8]


def test_experiment_overrides_defaults_which_override_builtins(tmp_path):
    spec, _ = load_spec(write(tmp_path, """\
        suite: s
        defaults: {samples: 500, placement: [same-cpu, unpinned]}
        experiments:
          - {name: e, operation: ping, drivers: rawtcp, placement: cross-cpu}
        """))
    settings = effective_settings(spec, spec.experiments[0])
    assert settings["samples"] == 500
    assert settings["placement"] == ["cross-cpu"]
    assert settings["warmup"] == 1000  # built in
    assert settings["transports"] is None  # every transport the driver has


def test_bad_value_names_file_line_and_key_and_lists_what_is_allowed(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: ping
            drivers: rawtcp
            placement: [same-cpu, cross]
        """)
    with pytest.raises(SpecError) as error:
        load_spec(path)
    message = str(error.value)
    assert f"{path}:6: experiments[0].placement[1]:" in message
    assert "'same-cpu', 'cross-cpu' or 'unpinned'" in message


def test_unknown_key_lists_the_allowed_keys(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: ping
            drivers: rawtcp
            colour: red
        """)
    with pytest.raises(SpecError) as error:
        load_spec(path)
    assert f"{path}:6: experiments[0].colour: unknown key; allowed keys here:" in str(error.value)
    assert "payload_bytes" in str(error.value)


def test_missing_key_names_the_experiment(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            drivers: rawtcp
        """)
    with pytest.raises(SpecError, match=r"spec\.yaml:3: experiments\[0\]\.operation: required"):
        load_spec(path)


def test_union_errors_are_one_line(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - {name: e, operation: ping, drivers: rawtcp, batch: lots}
        """)
    with pytest.raises(SpecError) as error:
        load_spec(path)
    lines = str(error.value).splitlines()
    assert len(lines) == 1 and "batch" in lines[0] and "'auto'" in lines[0]


@pytest.mark.parametrize("text, fragment", [
    ("suite: [unclosed\n", "not valid YAML"),
    ("- just a list\n", "a spec is a mapping"),
    ("suite: s\nexperiments: []\n", "experiments: List should have at least 1 item"),
    ("suite: s\nexperiments:\n  - {name: e, operation: ping, drivers: x, samples: 0}\n",
     "samples: Input should be greater than or equal to 1"),
])
def test_other_invalid_specs(tmp_path, text, fragment):
    with pytest.raises(SpecError, match=fragment):
        load_spec(write(tmp_path, text))


def test_missing_file_is_named(tmp_path):
    with pytest.raises(SpecError, match="absent.yaml: cannot read the spec"):
        load_spec(tmp_path / "absent.yaml")
