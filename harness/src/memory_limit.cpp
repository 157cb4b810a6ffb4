#include "memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "mwbench/options.hpp"

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space
// for their shadow memory: under any RLIMIT_AS nothing could be mapped.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MWBENCH_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MWBENCH_SANITIZER 1
#endif
#endif

namespace mwbench::detail {

namespace {
rlim_t g_soft_limit_before = RLIM_INFINITY;
std::atomic<bool> g_limited{false};
}  // namespace

void limit_address_space(std::uint64_t mib) {
  const std::string given = "--memory-limit-mb " + std::to_string(mib);
#if defined(MWBENCH_SANITIZER)
  throw UsageError(given +
                   ": not available in a build with AddressSanitizer "
                   "(MWBENCH_SANITIZE) or ThreadSanitizer, which reserve terabytes of address "
                   "space");
#else
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0) {
    throw std::runtime_error(given + ": getrlimit: " + std::strerror(errno));
  }
  constexpr std::uint64_t kMiB = 1024 * 1024;
  if (mib > RLIM_INFINITY / kMiB) throw UsageError(given + ": too large");
  const rlim_t bytes = static_cast<rlim_t>(mib * kMiB);
  if (limit.rlim_max != RLIM_INFINITY && bytes > limit.rlim_max) {
    throw UsageError(given + ": above this process's hard RLIMIT_AS of " +
                     std::to_string(limit.rlim_max / kMiB) + " MiB (ulimit -Hv)");
  }
  g_soft_limit_before = limit.rlim_cur;
  g_limited = true;
  limit.rlim_cur = bytes;
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    throw std::runtime_error(given + ": setrlimit: " + std::strerror(errno));
  }
#endif
}

void lift_address_space_limit() noexcept {
  if (!g_limited.exchange(false)) return;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0) return;
  limit.rlim_cur = g_soft_limit_before;
  setrlimit(RLIMIT_AS, &limit);
}

namespace {
// Written before it is needed: when it is, there may be no memory for it.
char g_message[256];
std::size_t g_length = 0;

void print_and_exit() {
  (void)!::write(STDERR_FILENO, g_message, g_length);
  std::_Exit(1);
}
}  // namespace

void exit_on_failed_allocation(const std::string& prog, std::uint64_t mib) {
  const int n = std::snprintf(g_message, sizeof g_message,
                              "%s: error: out of memory (--memory-limit-mb %llu)\n", prog.c_str(),
                              static_cast<unsigned long long>(mib));
  g_length = n < 0 ? 0 : std::min(static_cast<std::size_t>(n), sizeof g_message - 1);
  std::set_new_handler(print_and_exit);
}

}  // namespace mwbench::detail
