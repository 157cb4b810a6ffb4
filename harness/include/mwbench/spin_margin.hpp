// How early the open loop's sender stops sleeping before a call's intended
// time (send_on_schedule(), open_loop.hpp). A sleep ends late: the kernel
// wakes the thread after its timer fires, and in a virtual machine tens of
// microseconds after. The sender therefore sleeps until the intended time
// minus a margin and waits the rest without sleeping, yielding the CPU at
// every turn (sched_yield: on one CPU the reply thread and the server must
// still run), as RTI Perftest's -pubRate N:spin and sockperf's under-load
// busy-wait do.
//
// The margin is calibrated during the warm-up, whose sleeps go all the way
// to the intended time: it is the 90th percentile of how late they woke,
// bounded by a quarter of the mean gap (1/RATE), so that at high rates the
// sender does not spin most of the time. Without a warm-up sleep to learn
// from, the margin is 0: the sender only sleeps.
#pragma once

#include <cstdint>
#include <vector>

namespace mwbench {

class SpinMargin {
 public:
  // The margin is at most this fraction of the mean gap.
  static constexpr double kMaxGapFraction = 0.25;
  // The percentile of the warm-up sleeps' lateness taken as the margin.
  static constexpr double kLatenessPercentile = 0.90;
  // The latest warm-up sleeps kept for the calibration (allocated up front).
  static constexpr std::size_t kCalibrationSleeps = 1024;

  explicit SpinMargin(double mean_gap_ns);

  // While calibrating (before settle()): the sender sleeps to the intended
  // time, and how late a sleep woke (0 if on time) is recorded. Afterwards
  // it records nothing. Allocates nothing.
  bool calibrating() const noexcept { return !settled_; }
  void record_lateness(std::uint64_t late_ns) noexcept;
  // Ends the calibration: the margin from the sleeps recorded so far.
  void settle() noexcept;

  std::uint64_t margin_ns() const noexcept { return margin_ns_; }
  // The calibration, for the result header: sleeps it saw (all of them,
  // though only the latest kCalibrationSleeps count) and their percentile.
  std::uint64_t sleeps() const noexcept { return sleeps_; }
  std::uint64_t lateness_percentile_ns() const noexcept { return lateness_percentile_ns_; }
  std::uint64_t max_margin_ns() const noexcept { return max_margin_ns_; }

 private:
  std::uint64_t max_margin_ns_;
  std::vector<std::uint64_t> lateness_;  // a ring of the latest sleeps
  std::uint64_t sleeps_ = 0;
  std::uint64_t lateness_percentile_ns_ = 0;
  std::uint64_t margin_ns_ = 0;
  bool settled_ = false;
};

}  // namespace mwbench
