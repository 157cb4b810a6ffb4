// The load a client offers (docs/driver-contract.md section 2, --load):
// today's closed loop, where each call waits for the previous reply, or an
// open loop that starts calls on a schedule of its own, whatever the replies
// do (constant gaps, or Poisson arrivals).
#pragma once

#include <string>
#include <string_view>

namespace mwbench {

struct Load {
  enum class Kind { closed, constant, poisson };
  Kind kind = Kind::closed;
  double rate_per_s = 0;  // calls (or events) per second; 0 for closed

  // Whether calls go out on a schedule rather than after each reply.
  bool open() const noexcept { return kind != Kind::closed; }
  // The mean gap between two intended starts, in ns (open loads only).
  double mean_gap_ns() const noexcept { return 1e9 / rate_per_s; }
};

// The lowest open rate: one call per 1000 s. Below it the schedule's times
// would leave the 64-bit nanosecond clock within a few calls.
inline constexpr double kMinRatePerS = 1e-3;

// "closed", "constant:RATE" or "poisson:RATE", RATE a positive finite decimal
// number (1000, 2.5e4) of at least kMinRatePerS. Throws UsageError naming
// --load and the value otherwise.
Load parse_load(std::string_view text);

// The text parse_load() reads back: "closed", "poisson:2500", "constant:0.5".
std::string to_string(const Load& load);

}  // namespace mwbench
