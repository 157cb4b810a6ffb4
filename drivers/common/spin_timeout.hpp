// The --timeout of a busy wait (wait=poll or spin) that costs no clock read
// while the answer is on time: only every 4,096th empty poll reads the clock,
// the first such read starts the count, and the wait has timed out once
// --timeout has passed since. A reply 4,096 polls late is already slow by
// microseconds, so the count starts a little late, never early.
#pragma once

#include <cstdint>

#include "mwbench/clock.hpp"

namespace mwbench::common {

class SpinTimeout {
 public:
  explicit SpinTimeout(std::int64_t timeout_ns) noexcept
      : timeout_ns_(static_cast<std::uint64_t>(timeout_ns)) {}

  // Call once per empty poll; true once the wait has lasted --timeout.
  bool expired() noexcept {
    if ((++polls_ & 0xfff) != 0) return false;
    const std::uint64_t now = mwbench::now_ns();
    if (since_ == 0) since_ = now;
    return now - since_ > timeout_ns_;
  }

 private:
  std::uint64_t timeout_ns_;
  std::uint64_t polls_ = 0;
  std::uint64_t since_ = 0;  // the clock at the first read
};

}  // namespace mwbench::common
