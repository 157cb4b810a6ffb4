// How a listener on a middleware's thread wakes the measuring thread: a futex
// word, 0 idle, 1 rung, 2 a waiter asleep. ring() makes the futex system
// call only when the waiter is asleep; wait() sleeps only when nothing rang
// since it last returned. One waiter; ring() is one atomic exchange, so
// several threads may ring it (the first to see the waiter asleep wakes it).
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>

namespace mwbench::common {

class Doorbell {
 public:
  void ring() noexcept;
  // Returns true once rung (and clears it), false after `timeout` without.
  bool wait(const timespec& timeout) noexcept;

 private:
  std::atomic<std::uint32_t> word_{0};
};

}  // namespace mwbench::common
