"""A driver that writes a broken result file fails its cell, never the run.

A stand-in driver (standin_driver.py) writes one broken file per cell, each a
way a real driver, a bug or a hostile program could break it; `mwbench run`
runs them all in one run, through the real CLI, and every one must end as a
failed cell whose reason names the file and what is wrong, while the valid
cell after them is measured.
"""

import subprocess
import textwrap

from conftest import mwbench_exe, standin_environment
from mwbench.store import Store

# Each case, and what its cell's error must say (the field or the fault).
CASES = {
    "random-bytes": "not a result file",
    "invalid-utf8": "not UTF-8 text",
    "sample-count-text": "header: sample_count: Input should be a valid integer",
    "sample-count-null": "header: sample_count: Input should be a valid integer",
    "sample-count-1e400": "header: sample_count: Input should be a valid integer",
    "batch-size-text": "header: batch_size: Input should be a valid integer",
    "batch-size-zero": "header: batch_size: Input should be greater than or equal to 1",
    "batch-size-negative": "header: batch_size: Input should be greater than or equal to 1",
    "wall-text": "header: measured_wall_ns: Input should be a valid integer",
    "sample-above-int64": "a sample is empty or has more than 18 digits",
    "more-samples-than-asked": "sample_count: 200 samples; the cell asked for at most 100",
    "twenty-million-samples": "(the cell asked for at most 100 samples)",
    "deep-json": "header is not valid JSON",
    "fifo": "the result file is not a regular file",
    "named-series-cycle": "named_series.1.part_of: 'home_creation' is part of 'total' is "
                          "part of 'library_load' is part of 'home_creation'",
}


def test_every_broken_result_file_fails_its_cell_and_the_run_goes_on(standin_root, tmp_path):
    spec = tmp_path / "broken.yaml"
    cases = [*CASES, "none"]
    spec.write_text(textwrap.dedent(f"""\
        suite: broken
        defaults: {{launches: 1, warmup: 10, samples: 100, placement: unpinned, idle_hold: false}}
        experiments:
          - name: broken
            operation: roundtrip
            drivers: standin
            modes: collocated
            options: {{broken: [{", ".join(cases)}]}}
        """))
    env = standin_environment(standin_root, tmp_path)
    db = tmp_path / "results.db"
    proc = subprocess.run([mwbench_exe(), "run", str(spec), "--db", str(db)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # failed cells, not a crash
    assert "Traceback" not in proc.stdout + proc.stderr
    store = Store.open_existing(db)
    run = store.run(store.latest_run_id())
    cells = {cell["options"]["broken"]: cell for cell in store.cells(run["id"])}
    assert Store.status(run) == "finished"
    assert set(cells) == set(cases)
    for case, reason in CASES.items():
        cell = cells[case]
        assert cell["status"] == "failed", case
        assert reason in cell["error"], (case, cell["error"])
        assert "collocated.result" in cell["error"], (case, cell["error"])  # names the file
    assert cells["none"]["status"] == "ok"
    assert cells["none"]["samples"] == 100
    store.close()

