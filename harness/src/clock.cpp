// Clock read cost and resolution, recorded in every result header.
#include "mwbench/clock.hpp"

#include <algorithm>
#include <vector>

namespace mwbench {

double measure_read_cost_ns(int pairs) {
  if (pairs < 1) pairs = 1;
  std::vector<std::uint64_t> cost(static_cast<std::size_t>(pairs));
  // A few untimed reads first, so the vDSO page and the code are warm.
  for (int i = 0; i < 1000; ++i) (void)now_ns();
  for (auto& c : cost) {
    const std::uint64_t a = now_ns();
    const std::uint64_t b = now_ns();
    c = b - a;
  }
  // The median, not the mean: an interrupt during one pair must not count.
  std::sort(cost.begin(), cost.end());
  const std::size_t mid = cost.size() / 2;
  if (cost.size() % 2 == 1) return static_cast<double>(cost[mid]);
  return (static_cast<double>(cost[mid - 1]) + static_cast<double>(cost[mid])) / 2.0;
}

std::uint64_t clock_resolution_ns() {
  timespec res{};
  clock_getres(CLOCK_MONOTONIC, &res);
  return static_cast<std::uint64_t>(res.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(res.tv_nsec);
}

nlohmann::json ClockInfo::to_json() const {
  return {{"source", "CLOCK_MONOTONIC"},
          {"read_cost_ns", read_cost_ns},
          {"resolution_ns", resolution_ns}};
}

ClockInfo probe_clock() { return {measure_read_cost_ns(), clock_resolution_ns()}; }

}  // namespace mwbench
