// The one clock every sample is taken with, and what it costs to read.
//
// CLOCK_MONOTONIC through clock_gettime() is served by the vDSO on Linux (no
// system call), never jumps with NTP steps, and is the same clock in every
// process, so server and client timestamps are comparable. Every result header
// records its measured read cost so a reader can judge samples of a few clock
// reads.
#pragma once

#include <cstdint>
#include <ctime>
#include <nlohmann/json.hpp>

namespace mwbench {

// Nanoseconds on CLOCK_MONOTONIC. Inline: it sits on the measured path.
inline std::uint64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// Median duration of `pairs` back-to-back now_ns() pairs, in nanoseconds.
double measure_read_cost_ns(int pairs = 20000);

// clock_getres(CLOCK_MONOTONIC) in nanoseconds.
std::uint64_t clock_resolution_ns();

struct ClockInfo {
  double read_cost_ns = 0;
  std::uint64_t resolution_ns = 0;

  // {"source": "CLOCK_MONOTONIC", "read_cost_ns": ..., "resolution_ns": ...}
  nlohmann::json to_json() const;
};

// Measures the read cost and asks the resolution; takes a few milliseconds.
ClockInfo probe_clock();

}  // namespace mwbench
