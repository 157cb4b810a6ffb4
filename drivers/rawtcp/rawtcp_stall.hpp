// A server that stops answering now and then (--option stall_ms=MS,
// stall_every_ms=P): at a connection's first request, and then once every P
// ms, it holds the request in hand for MS ms before it answers, as a garbage
// collection or a page-cache flush would. The first stall comes first so
// that a test knows which call meets it. It shows coordinated omission (docs/performance.md):
// a closed loop meets one stall per P ms in one slow sample; an open loop at
// RATE calls per second meets about RATE x MS slow ones.
#pragma once

#include <atomic>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "mwbench/options.hpp"

namespace rawtcp {

struct StallPlan {
  std::uint64_t stall_ms = 0;  // 0: never
  std::uint64_t every_ms = 1000;
  std::atomic<std::uint64_t> stalls{0};  // taken so far, by every connection

  // Reads stall_ms and stall_every_ms; throws UsageError naming the option
  // for anything but whole milliseconds, stall_every_ms above stall_ms.
  explicit StallPlan(const mwbench::DriverOptions& o);

  // For the server's middleware_config: {"stall_ms", "stall_every_ms", "stalls"}.
  nlohmann::json config() const;
};

// One connection's stalls: at its first request, then every P ms.
class StallClock {
 public:
  explicit StallClock(StallPlan& plan);
  // Before each reply: sleeps MS ms if a stall is due.
  void before_reply() {
    if (plan_.stall_ms != 0) stall_if_due();
  }

 private:
  void stall_if_due();
  StallPlan& plan_;
  std::uint64_t next_ns_ = 0;
};

}  // namespace rawtcp
