"""`mwbench env`: the disclosure every run stores."""

import json

from click.testing import CliRunner

from mwbench.cli import main


def test_json_discloses_machine_build_software_and_commit():
    result = CliRunner().invoke(main, ["env", "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)
    assert facts["machine"]["cpu_count"] >= 1
    assert facts["machine"]["cpu_model"]
    assert facts["machine"]["clocksource"]
    assert facts["kernel"]["release"]
    assert facts["build"]["compiler_id"] == "GNU"  # written by CMake into build/
    assert facts["middleware_packages"]["libomniorb4-dev"].startswith("4.2")
    assert facts["python"]["packages"]["numpy"]
    assert len(facts["git"]["commit"]) == 40 and isinstance(facts["git"]["dirty"], bool)


def test_text_form_lists_the_same_facts():
    result = CliRunner().invoke(main, ["env"])
    assert result.exit_code == 0
    assert "machine:" in result.output and "cpuidle_driver:" in result.output
