// What the measured-loop tests share: options of a collocated run, and a
// call of known cost.
#pragma once

#include <cstdint>
#include <optional>

#include "mwbench/clock.hpp"
#include "mwbench/options.hpp"

namespace mwbench::testing {

// A collocated run of `threads` threads, `samples` samples and `warmup`
// calls each; `batch` empty means --batch auto.
inline DriverOptions collocated_options(int threads, std::uint64_t samples, std::uint64_t warmup,
                                        std::optional<std::uint64_t> batch) {
  DriverOptions o;
  o.role = Role::collocated;
  o.threads = threads;
  o.samples = samples;
  o.warmup = warmup;
  o.batch = batch;
  return o;
}

// Busy-waits `ns` nanoseconds: a call of known cost.
inline void spin(std::uint64_t ns) {
  const std::uint64_t until = now_ns() + ns;
  while (now_ns() < until) {
  }
}

}  // namespace mwbench::testing
