// The doorbell: an atomic word and FUTEX_WAIT/FUTEX_WAKE on it.
#include "common/doorbell.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace mwbench::common {

namespace {

constexpr std::uint32_t kIdle = 0;
constexpr std::uint32_t kRung = 1;
constexpr std::uint32_t kAsleep = 2;

long futex(std::atomic<std::uint32_t>& word, int op, std::uint32_t value,
           const timespec* timeout) noexcept {
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), op, value, timeout, nullptr,
                   0);
}

}  // namespace

void Doorbell::ring() noexcept {
  if (word_.exchange(kRung, std::memory_order_release) == kAsleep) {
    futex(word_, FUTEX_WAKE_PRIVATE, 1, nullptr);
  }
}

bool Doorbell::wait(const timespec& timeout) noexcept {
  std::uint32_t seen = kRung;
  if (word_.compare_exchange_strong(seen, kIdle, std::memory_order_acquire)) return true;
  // `seen` is kIdle: announce that we sleep, unless it rang meanwhile.
  if (!word_.compare_exchange_strong(seen, kAsleep, std::memory_order_acquire)) {
    word_.store(kIdle, std::memory_order_relaxed);
    return true;
  }
  for (;;) {
    const long r = futex(word_, FUTEX_WAIT_PRIVATE, kAsleep, &timeout);
    seen = kRung;
    if (word_.compare_exchange_strong(seen, kIdle, std::memory_order_acquire)) return true;
    if (r != 0 && errno == ETIMEDOUT) {
      // Still asleep: clear it, unless it rang this very moment.
      std::uint32_t asleep = kAsleep;
      if (word_.compare_exchange_strong(asleep, kIdle, std::memory_order_acquire)) return false;
      word_.store(kIdle, std::memory_order_relaxed);
      return true;
    }
    // EINTR, EAGAIN or a spurious wake-up: wait again (the full timeout; it
    // only bounds a wait for a server that has gone).
  }
}

}  // namespace mwbench::common
