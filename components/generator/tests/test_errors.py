"""Every rule of a description fails with FILE:LINE:COL and exit status 2.

One case per rule (docs/components.md section 2); each pins the whole
message, since the message is the user interface of the rule.
"""

import subprocess
import sys

import pytest
from generator_testing import GENERATOR
from mwccm_gen.__main__ import main

COMPONENT_HEAD = "module M {\n  eventtype Tick { public long n; };\n"

CASES = {
    "syntax_missing_semicolon": (
        "module M {\n  struct S { long x; }\n};\n",
        "bad.idl3:3:1: error: unexpected '}', expected ';'",
    ),
    "syntax_end_of_file": (
        "module M {\n  component C {\n",
        "bad.idl3:3:1: error: unexpected end of file",
    ),
    "syntax_unexpected_character": (
        "module M { struct S { long x; }; }; $\n",
        "bad.idl3:1:37: error: unexpected character '$'",
    ),
    "preprocessor_other_than_include": (
        "#pragma prefix \"x\"\n",
        "bad.idl3:1:1: error: only #include is supported of the preprocessor",
    ),
    "interface_outside_subset": (
        "module M {\n  interface I { void f(); };\n};\n",
        "bad.idl3:2:3: error: 'interface' is not in the mwccm subset: "
        "interfaces belong in an included IDL2 file",
    ),
    "keyword_as_name": (
        "module M {\n  eventtype Tick { public long sequence; };\n};\n",
        "bad.idl3:2:32: error: 'sequence' is an IDL keyword and cannot be a name",
    ),
    "unknown_event_type": (
        COMPONENT_HEAD + "  component C { publishes Tock ticks; };\n};\n",
        "bad.idl3:3:32: error: unknown event type 'Tock' of port 'ticks': an event is "
        "an eventtype or struct declared earlier in this description",
    ),
    "event_port_of_an_enum": (
        "module M {\n  enum E { A };\n  component C { consumes E es; };\n};\n",
        "bad.idl3:3:28: error: unknown event type 'E' of port 'es': an event is "
        "an eventtype or struct declared earlier in this description",
    ),
    "duplicate_port_name": (
        COMPONENT_HEAD + "  component C {\n    publishes Tick feed;\n    consumes Tick feed;\n"
        "  };\n};\n",
        "bad.idl3:5:19: error: duplicate port name 'feed' in component 'C' "
        "(first declared at line 4)",
    ),
    "attribute_and_port_share_a_name": (
        COMPONENT_HEAD + "  component C {\n    consumes Tick rate;\n    attribute long rate;\n"
        "  };\n};\n",
        "bad.idl3:5:20: error: duplicate port name 'rate' in component 'C' "
        "(first declared at line 4)",
    ),
    "attribute_type_sequence": (
        "module M {\n  component C { attribute sequence<long> values; };\n};\n",
        "bad.idl3:2:36: error: attribute 'values' has type 'sequence<long>': attribute "
        "types are the IDL basic types, string, or an enum of this description",
    ),
    "attribute_type_any": (
        "module M {\n  component C { attribute any value; };\n};\n",
        "bad.idl3:2:27: error: attribute 'value' has type 'any': attribute "
        "types are the IDL basic types, string, or an enum of this description",
    ),
    "attribute_type_struct": (
        "module M {\n  struct S { long x; };\n  component C { attribute S s; };\n};\n",
        "bad.idl3:3:27: error: attribute 's' has type 'S': attribute "
        "types are the IDL basic types, string, or an enum of this description",
    ),
    "home_manages_unknown_component": (
        "module M {\n  home H manages Missing {};\n};\n",
        "bad.idl3:2:8: error: home 'H' manages unknown component 'Missing': "
        "a home manages a component declared earlier in this description",
    ),
    "component_supports": (
        "module M {\n  component C supports Test::RoundTrip {};\n};\n",
        "bad.idl3:2:15: error: 'supports' is not in the mwccm subset",
    ),
    "home_supports": (
        "module M {\n  component C {};\n  home H supports Test::RoundTrip manages C {};\n};\n",
        "bad.idl3:3:10: error: 'supports' is not in the mwccm subset",
    ),
    "component_inheritance": (
        "module M {\n  component B {};\n  component C : B {};\n};\n",
        "bad.idl3:3:17: error: component inheritance is not in the mwccm subset",
    ),
    "duplicate_declaration": (
        "module M {\n  struct S { long x; };\n  enum S { A };\n};\n",
        "bad.idl3:3:8: error: 'M::S' is already declared at line 2",
    ),
    "include_inside_module": (
        "module M {\n#include \"x.idl\"\n};\n",
        "bad.idl3:2:1: error: #include belongs at file level",
    ),
    "not_a_basic_type": (
        "module M {\n  struct S { unsigned double x; };\n};\n",
        "bad.idl3:2:14: error: 'unsigned double' is not an IDL type",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rule_reports_file_line_column(case, tmp_path, monkeypatch, capsys):
    text, expected = CASES[case]
    (tmp_path / "bad.idl3").write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "bad.idl3"]) == 2
    assert capsys.readouterr().err.strip() == expected


def test_command_line_exits_2_with_the_message_on_stderr(tmp_path):
    (tmp_path / "bad.idl3").write_text(CASES["unknown_event_type"][0])
    result = subprocess.run(
        [sys.executable, "-m", "mwccm_gen", "idl", "bad.idl3", "-o", "out"],
        cwd=tmp_path, env={"PYTHONPATH": str(GENERATOR)}, capture_output=True, text=True,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("bad.idl3:3:32: error: unknown event type 'Tock'")
    assert not (tmp_path / "out").exists()


def test_missing_file_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "absent.idl3"]) == 2
    assert "absent.idl3: error: No such file or directory" in capsys.readouterr().err


def test_signatures_of_another_description_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "good.idl3").write_text("module M {\n  component C {};\n};\n")
    (tmp_path / "stale.json").write_text('{"interfaces": {}}')
    monkeypatch.chdir(tmp_path)
    assert main(["cpp", "good.idl3", "--signatures", "stale.json", "-o", "out"]) == 2
    assert capsys.readouterr().err.strip() == (
        "stale.json: error: the signatures have no interface ::M::C: "
        "regenerate them from this description"
    )
