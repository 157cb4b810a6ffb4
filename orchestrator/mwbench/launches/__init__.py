"""Process launches as the unit of every statistic.

A configuration (every factor of a cell but its launch) is measured by L
launches: each a new set of processes (server, client, and any daemon or
node they need) that warms up and keeps S samples. On a small virtual
machine a process pair settles near one of a few levels and stays there, and
the machine passes through slow stretches that hit every process alike, so
the samples of one launch say little about the next launch: the launch, not
the sample, is what is repeated and counted.

- bootstrap.py: the hierarchical bootstrap (launches, then samples within
  each) of a percentile and of a ratio, paired launch by launch or not;
- estimate.py: a reported figure, the median over launches of each launch's
  figure, with its interval, or "1 launch: no interval";
- schedule.py: the order of a run's launches, in randomised blocks by a seed;
- variance.py: the variance between launches and within one (Kalibera and
  Jones's two levels), and what a launch and a sample cost;
- chooser.py: launches and samples per cell from those, within a time budget;
- calibration.py: those components, stored per machine and configuration,
  refreshed by every run and by a short calibration when missing or stale.

What a run will do with them (the plan that `mwbench plan` prints and `mwbench
run` follows) is launch_plan.py's, above the matrix.
"""
