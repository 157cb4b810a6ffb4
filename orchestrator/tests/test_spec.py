"""Spec validation: valid specs load, and every error names file, line and key."""


import pytest

from conftest import PING_EXPERIMENT, spec_refusal, write_spec
from mwbench.spec import SpecError, effective_settings, load_spec

VALID = """\
suite: quick
defaults: {warmup: 1000, samples: 20000, launches: 1, placement: same-cpu, idle_hold: true}
experiments:
""" + PING_EXPERIMENT + "    payload_bytes: [0]\n"


write = write_spec


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
    message = spec_refusal(path)
    assert f"{path}:6: experiments[0].placement[1]:" in message
    assert "'same-cpu', 'cross-cpu' or 'unpinned'" in message
    assert "(did you mean 'cross-cpu'?)" in message  # the closest (spec_text.py)


def test_unknown_key_lists_the_allowed_keys(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: ping
            drivers: rawtcp
            colour: red
        """)
    message = spec_refusal(path)
    assert f"{path}:6: experiments[0].colour: unknown key; allowed keys here:" in message
    assert "payload_bytes" in message


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
    message = spec_refusal(path)
    lines = message.splitlines()
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


def test_background_memory_limit_and_role_load(tmp_path):
    spec, _ = load_spec(write(tmp_path, """\
        suite: s
        defaults: {memory_limit_mb: 512}
        experiments:
          - {name: e, operation: ping, drivers: omniorb, background: [none, "cpu:2"],
             role: servants, servants: [1, 10]}
        """))
    settings = effective_settings(spec, spec.experiments[0])
    assert settings["background"] == ["none", "cpu:2"]
    assert settings["memory_limit_mb"] == 512
    assert spec.experiments[0].role == "servants"


def test_background_and_memory_limit_default_to_none(tmp_path):
    spec, _ = load_spec(write(tmp_path, VALID))
    settings = effective_settings(spec, spec.experiments[0])
    assert settings["background"] == ["none"]
    assert settings["memory_limit_mb"] is None


@pytest.mark.parametrize("value", ['"cpu:0"', '"cpu:x"', "busy", "3", '"cpu:"'])
def test_bad_background_names_the_line_and_what_is_allowed(tmp_path, value):
    path = write(tmp_path, f"""\
        suite: s
        experiments:
          - name: e
            operation: ping
            drivers: rawtcp
            background: [none, {value}]
        """)
    message = spec_refusal(path)
    assert f"{path}:6: experiments[0].background[1]: background" in message
    assert "is not valid: use none, or cpu:N with N >= 1" in message
    assert "Value error" not in message


@pytest.mark.parametrize("experiment, fragment", [
    ("{name: e, operation: ping, drivers: omniorb, role: simple, threads: [1, 2]}",
     "role simple is one call with payload_bytes 0, one servant and one thread; this "
     "experiment has threads [1, 2]"),
    ("{name: e, operation: octets, drivers: omniorb, role: size, payload_bytes: [64, 128]}",
     "role size needs payload_bytes 0 in its sweep (the estimate subtracts it); it has "
     "[64, 128]"),
    ("{name: e, operation: ping, drivers: omniorb, role: servants, servants: [10, 100]}",
     "role servants needs servants 1 in its sweep"),
    ("{name: e, operation: ping, drivers: omniorb, role: threads, threads: 4}",
     "role threads needs threads 1 in its sweep"),
    ("{name: e, operation: ping, drivers: omniorb, role: sizes}",
     "Input should be 'simple', 'size', 'servants', 'threads' or 'mixture'"),
])
def test_a_role_must_measure_what_the_estimate_looks_up(tmp_path, experiment, fragment):
    path = write(tmp_path, f"suite: s\nexperiments:\n  - {experiment}\n")
    message = spec_refusal(path)
    assert f"{path}:3: experiments[0].role: {fragment}" in message


def test_subscribers_belong_to_a_fanout(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: roundtrip
            drivers: rawtcp
            subscriber_processes: each
        """)
    message = spec_refusal(path)
    assert (f"{path}:6: experiments[0].subscriber_processes: only the operation fanout has "
            "subscribers; this experiment measures roundtrip") in message


def test_subscriber_processes_are_one_or_each(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - {name: e, operation: fanout, drivers: rawtcp, subscriber_processes: [one, two]}
        """)
    message = spec_refusal(path)
    assert "subscriber_processes[1]: Input should be 'one' or 'each'" in message


def test_memory_limit_must_be_positive(tmp_path):
    path = write(tmp_path, """\
        suite: s
        defaults: {memory_limit_mb: 0}
        experiments:
          - {name: e, operation: ping, drivers: rawtcp}
        """)
    with pytest.raises(SpecError, match=r"spec\.yaml:2: defaults\.memory_limit_mb: Input should "
                                        r"be greater than or equal to 1"):
        load_spec(path)


def test_the_built_in_suites_are_valid():
    from conftest import REPO

    for path in sorted((REPO / "suites").glob("*.yaml")):
        load_spec(path)


FACTORIAL = """\
suite: s
defaults: {placement: [same-cpu, cross-cpu]}
experiments:
  - name: e
    operation: ping
    drivers: [rawtcp, omniorb]
    threads: [1, 2]
    transports: [tcp]
    options: {threading: [per-connection, pool], connections: [own, shared, own]}
    factorial: {factorial}
"""


@pytest.mark.parametrize("factorial, levels", [
    ("[options.threading, threads]", [["per-connection", "pool"], [1, 2]]),
    ("[driver, placement, options.connections]",
     [["rawtcp", "omniorb"], ["same-cpu", "cross-cpu"], ["own", "shared"]]),
])
def test_a_factorial_of_two_level_factors_loads(tmp_path, factorial, levels):
    from mwbench.spec import factor_levels

    spec, _ = load_spec(write(tmp_path, FACTORIAL.replace("{factorial}", factorial)))
    experiment = spec.experiments[0]
    assert [list(dict.fromkeys(factor_levels(spec, experiment, name)))
            for name in experiment.factorial] == levels


@pytest.mark.parametrize("factorial, where, fragment", [
    ("[threads]", "experiments[0].factorial",
     "name two or three factors; it names 1"),
    ("[threads, driver, placement, options.threading]", "experiments[0].factorial",
     "name two or three factors; it names 4"),
    ("[threads, threads]", "experiments[0].factorial[1]", "threads is named twice"),
    ("[threads, drivers]", "experiments[0].factorial[1]",
     "'drivers' is not a factor; use one of driver, transport, mode, operation, "
     "payload_bytes, placement, idle_hold, priority, servants, threads, subscribers, "
     "subscriber_processes, orb, assembly, delivery, layer, invocation, dispatch, background, "
     "load, hosts, or options.KEY for a driver option"),
    ("[threads, operation]", "experiments[0].factorial[1]",
     "operation has 1 level in this experiment (ping); a factor of the design needs 2 to 6: "
     "list them under operation"),
    ("[threads, servants]", "experiments[0].factorial[1]",
     "servants is not set in this experiment; list its levels under servants"),
    ("[threads, transport]", "experiments[0].factorial[1]",
     "transport has 1 level in this experiment (tcp)"),
    ("[threads, options.pool_size]", "experiments[0].factorial[1]",
     "options.pool_size is not set in this experiment; list its levels under options, "
     "e.g. options: {pool_size: [a, b]}"),
])
def test_a_factorial_names_two_or_three_factors_of_two_to_six_levels(tmp_path, factorial, where,
                                                              fragment):
    path = write(tmp_path, FACTORIAL.replace("{factorial}", factorial))
    message = spec_refusal(path)
    assert f"{path}:10: {where}: {fragment}" in message


def test_a_factor_of_three_levels_makes_a_full_factorial(tmp_path):
    from mwbench.spec import factor_levels

    spec, _ = load_spec(write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: ping
            drivers: [ccm, java]
            orb: [omniorb, jacorb, glassfish]
            layer: [object, component]
            factorial: [orb, layer]
        """))
    experiment = spec.experiments[0]
    assert [factor_levels(spec, experiment, name) for name in experiment.factorial] == [
        ["omniorb", "jacorb", "glassfish"], ["object", "component"]]


def test_a_factor_of_more_than_six_levels_is_named_with_its_levels(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: octets
            drivers: omniorb
            payload_bytes: [0, 1, 2, 4, 8, 16, 32]
            threads: [1, 2]
            factorial:
              - threads
              - payload_bytes
        """)
    message = spec_refusal(path)
    assert message == (
        f"{path}:10: experiments[0].factorial[1]: payload_bytes has 7 levels in this "
        "experiment (0, 1, 2, 4, 8, 16, 32); a factor of the design needs 2 to 6: list them "
        "under payload_bytes")


def test_transports_left_to_the_drivers_are_not_two_levels(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - {name: e, operation: ping, drivers: omniorb, threads: [1, 2],
             factorial: [threads, transport]}
        """)
    with pytest.raises(SpecError, match=r"spec\.yaml:4: experiments\[0\]\.factorial\[1\]: "
                                        r"transports are not listed in this experiment"):
        load_spec(path)


def test_assembly_is_a_factor_of_two_levels_unset_by_default(tmp_path):
    spec, _ = load_spec(write(tmp_path, """\
        suite: s
        defaults: {assembly: static}
        experiments:
          - {name: both, operation: assembly, drivers: deploy, assembly: [static, dynamic]}
          - {name: default, operation: assembly, drivers: deploy}
          - {name: unset, operation: roundtrip, drivers: omniorb, assembly: null}
        """))
    assert [effective_settings(spec, e)["assembly"] for e in spec.experiments] == [
        ["static", "dynamic"], ["static"], ["static"]]
    plain, _ = load_spec(write(tmp_path, VALID))
    assert effective_settings(plain, plain.experiments[0])["assembly"] == [None]


def test_an_unknown_assembly_names_the_line_and_the_levels(tmp_path):
    path = write(tmp_path, """\
        suite: s
        experiments:
          - name: e
            operation: assembly
            drivers: deploy
            assembly: [static, compiled]
        """)
    with pytest.raises(SpecError, match=r"spec.yaml:6: experiments\[0\]\.assembly\[1\]: Input "
                                        r"should be 'static' or 'dynamic'"):
        load_spec(path)


@pytest.mark.parametrize("defaults, experiment", [
    ("{}", "assembly: [static, dynamic], options: {assembly: static, plan: a}"),
    ("{options: {assembly: dynamic}}", "assembly: static"),
    ("{assembly: static}", "options: {assembly: [static, dynamic]}"),
])
def test_assembly_set_both_as_the_factor_and_as_an_option_is_refused(tmp_path, defaults,
                                                                     experiment):
    path = write(tmp_path, f"""\
        suite: s
        defaults: {defaults}
        experiments:
          - {{name: fine, operation: assembly, drivers: deploy, assembly: static}}
          - {{name: twice, operation: assembly, drivers: deploy, {experiment}}}
        """)
    message = spec_refusal(path)
    assert "experiments[1] ('twice'): assembly is set both as `assembly:` and as `options: " \
           "{assembly: ...}`" in message
    # `fine` conflicts too when `defaults` sets the other half.
    assert ("experiments[0] ('fine')" in message) == ("options" in defaults)
