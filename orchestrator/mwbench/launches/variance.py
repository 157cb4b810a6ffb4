"""The variance of a configuration's median at its two levels, and what each level costs.

Kalibera and Jones ("Rigorous Benchmarking in Reasonable Time", ISMM 2013)
treat an experiment as levels (here: launches, and samples within a launch),
estimate the variance each level adds from a short experiment, and spend
time where the uncertainty is. Their estimators are of means; mwbench's
figure is the median over launches of each launch's median, so the two
levels are measured on medians:

- within: the variance of one launch's median, from its samples (the
  distribution-free interval of a median, from the order statistics at
  n/2 +- 1.96 sqrt(n)/2, is four of its standard deviations wide), times its
  samples, so that `within / S` is that variance for a launch of S samples;
- between: the variance of the launch medians less the part their own
  sampling error explains (Kalibera and Jones's T2^2 = S2^2 - S1^2 / n1,
  corrected as libkalibera documents), floored at MIN_BETWEEN: no machine
  repeats a process pair to better than that.

Both are relative to the configuration's median (squared coefficients of
variation), so that they carry over to another payload of the same
configuration. The costs are a launch's fixed cost (starting and stopping
its processes, the warm-up, judging and storing it: the cell's duration less
its samples' time) and one sample's (the mean time a sample took).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959964
MIN_BETWEEN = 0.002**2  # 0.2%: the floor of the spread between launches
MIN_LAUNCH_COST_S = 0.001


class TooFewLaunches(ValueError):
    """Components need at least two launches."""


@dataclass(frozen=True)
class Components:
    between: float  # variance of launch medians beyond their sampling error, relative
    within: float  # variance of one launch's median times its samples, relative
    launch_cost_s: float  # a launch's cost beyond its samples
    sample_cost_s: float  # one sample's
    launches: int  # measured from
    samples: int  # per launch (the smallest)

    def figure_variance(self, launches: int, samples: int) -> float:
        """The relative variance of the median over `launches` launch medians of `samples`
        samples each (pi/2: a median's variance against a mean's, for normal values)."""
        return np.pi / 2 * (self.between + self.within / samples) / launches

    def launch_s(self, samples: int) -> float:
        """What one launch of `samples` samples costs."""
        return self.launch_cost_s + samples * self.sample_cost_s


def median_variance(sorted_sample: np.ndarray) -> float:
    """The variance of a sample's median, from the order statistics around it."""
    n = sorted_sample.size
    reach = Z95 * np.sqrt(n) / 2
    low = sorted_sample[max(int(np.floor(n / 2 - reach)), 0)]
    high = sorted_sample[min(int(np.ceil(n / 2 + reach)), n - 1)]
    return float(((high - low) / (2 * Z95)) ** 2)


def components(launches: Sequence[np.ndarray], durations_s: Sequence[float]) -> Components:
    """The components of one configuration from its launches (per-sample times in ns, as
    the driver measured them) and the wall time each launch took."""
    if len(launches) < 2:
        raise TooFewLaunches(f"{len(launches)} launch: the spread between launches needs two")
    ordered = [np.sort(np.asarray(launch, dtype=np.float64)) for launch in launches]
    medians = np.array([np.median(launch) for launch in ordered])
    centre = float(np.median(medians))
    sizes = np.array([launch.size for launch in ordered])
    sampling = np.array([median_variance(launch) for launch in ordered])
    within = float(np.mean(sampling * sizes)) / centre**2
    between = (float(np.var(medians, ddof=1)) - float(np.mean(sampling))) / centre**2
    sample_s = float(np.sum([launch.sum() for launch in ordered])) / 1e9 / sizes.sum()
    launch_s = [duration - launch.sum() / 1e9 for duration, launch in zip(durations_s, ordered,
                                                                          strict=True)]
    return Components(
        between=max(between, MIN_BETWEEN), within=within,
        launch_cost_s=max(float(np.median(launch_s)), MIN_LAUNCH_COST_S),
        sample_cost_s=sample_s, launches=len(ordered), samples=int(sizes.min()))
