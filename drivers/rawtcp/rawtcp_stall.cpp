#include "rawtcp_stall.hpp"

#include <cerrno>
#include <charconv>
#include <ctime>
#include <string>

#include "mwbench/clock.hpp"

namespace rawtcp {

namespace {

constexpr std::uint64_t kMs = 1'000'000;
// A day: any longer would be a server that never answers, not a stall.
constexpr std::uint64_t kMaxMs = 86'400'000;

std::uint64_t milliseconds(const mwbench::DriverOptions& o, const std::string& key,
                           std::uint64_t fallback) {
  const std::string text = o.option(key, std::to_string(fallback));
  std::uint64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || value > kMaxMs) {
    throw mwbench::UsageError("--option " + key + "=" + text.substr(0, 64) +
                              ": expected a whole number of milliseconds, at most " +
                              std::to_string(kMaxMs));
  }
  return value;
}

}  // namespace

StallPlan::StallPlan(const mwbench::DriverOptions& o)
    : stall_ms(milliseconds(o, "stall_ms", 0)), every_ms(milliseconds(o, "stall_every_ms", 1000)) {
  if (stall_ms != 0 && every_ms <= stall_ms) {
    throw mwbench::UsageError("--option stall_every_ms=" + std::to_string(every_ms) +
                              ": must be more than stall_ms (" + std::to_string(stall_ms) +
                              "), or the server would never answer");
  }
}

nlohmann::json StallPlan::config() const {
  return {{"stall_ms", stall_ms}, {"stall_every_ms", every_ms}, {"stalls", stalls.load()}};
}

StallClock::StallClock(StallPlan& plan) : plan_(plan) {}  // next_ns_ 0: due at once

void StallClock::stall_if_due() {
  const std::uint64_t now = mwbench::now_ns();
  if (now < next_ns_) return;
  timespec pause{};
  pause.tv_sec = static_cast<time_t>(plan_.stall_ms / 1000);
  pause.tv_nsec = static_cast<long>(plan_.stall_ms % 1000 * kMs);
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, &pause) == EINTR) {
  }
  plan_.stalls.fetch_add(1, std::memory_order_relaxed);
  // P after this stall began; past its end, should the sleep have overrun.
  const std::uint64_t period = plan_.every_ms * kMs;
  const std::uint64_t after = mwbench::now_ns();
  next_ns_ = now + period;
  if (next_ns_ <= after) next_ns_ += ((after - next_ns_) / period + 1) * period;
}

}  // namespace rawtcp
