"""Progress where the output is not a terminal: plain lines with done/total and an ETA,
at most one per interval, and always one after the last launch."""

import io

from rich.console import Console

from mwbench.progress import PlainProgress


def test_lines_come_per_interval_and_after_the_last_launch_with_the_time_left():
    output = io.StringIO()
    now = [0.0]
    progress = PlainProgress(Console(file=output, width=200), total=4, interval_s=10,
                             clock=lambda: now[0])
    for step, label in ((4.0, "a"), (8.0, "b"), (1.0, "c"), (1.0, "d")):
        now[0] += step
        progress.advance(label)
    assert output.getvalue().splitlines() == [
        "progress: 2/4 launches, 0:00:12 elapsed, about 0:00:12 left (b)",
        "progress: 4/4 launches, 0:00:14 elapsed, about 0:00:00 left (d)",
    ]
