// The open loop's spin margin (spin_margin.hpp).
#include "mwbench/spin_margin.hpp"

#include <algorithm>
#include <cmath>

namespace mwbench {

SpinMargin::SpinMargin(double mean_gap_ns)
    : max_margin_ns_(static_cast<std::uint64_t>(std::llround(kMaxGapFraction * mean_gap_ns))),
      lateness_(kCalibrationSleeps, 0) {}

void SpinMargin::record_lateness(std::uint64_t late_ns) noexcept {
  if (settled_) return;
  lateness_[sleeps_ % lateness_.size()] = late_ns;
  ++sleeps_;
}

void SpinMargin::settle() noexcept {
  if (settled_) return;
  settled_ = true;
  const std::size_t kept =
      static_cast<std::size_t>(std::min<std::uint64_t>(sleeps_, lateness_.size()));
  if (kept == 0) return;
  // The smallest value at least kLatenessPercentile of the sleeps do not exceed.
  const auto rank = static_cast<std::size_t>(std::ceil(kLatenessPercentile * double(kept))) - 1;
  const auto first = lateness_.begin();
  std::nth_element(first, first + static_cast<std::ptrdiff_t>(rank),
                   first + static_cast<std::ptrdiff_t>(kept));
  lateness_percentile_ns_ = lateness_[rank];
  margin_ns_ = std::min(lateness_percentile_ns_, max_margin_ns_);
}

}  // namespace mwbench
