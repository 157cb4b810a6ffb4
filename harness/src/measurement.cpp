// The non-template half of Measurement: buffer, endpoint wait, loop probe.
#include "mwbench/measurement.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "mwbench/placement.hpp"

namespace mwbench {

namespace detail {

namespace {
// The peak resident set of this program, in kB. Not ru_maxrss: Linux carries
// that across execve(), so a driver started by a large parent (the Python
// orchestrator) would report the parent's peak. VmHWM belongs to this image.
std::int64_t peak_rss_kb() noexcept {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return -1;
  char line[256];
  long long kb = -1;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::sscanf(line, "VmHWM: %lld kB", &kb) == 1) break;
  }
  std::fclose(status);
  return kb;
}

ResourceUsage resource_usage_now() noexcept {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  ResourceUsage u;
  u.voluntary_switches = ru.ru_nvcsw;
  u.involuntary_switches = ru.ru_nivcsw;
  u.user_us = ru.ru_utime.tv_sec * 1'000'000 + ru.ru_utime.tv_usec;
  u.system_us = ru.ru_stime.tv_sec * 1'000'000 + ru.ru_stime.tv_usec;
  u.max_rss_kb = peak_rss_kb();
  return u;
}
}  // namespace

void LoopProbe::start() noexcept {
  cpu_first_ = current_cpu();
  before_ = resource_usage_now();
  start_ns_ = now_ns();
}

void LoopProbe::stop() noexcept {
  end_ns_ = now_ns();
  after_ = resource_usage_now();
  cpu_last_ = current_cpu();
}

ResourceUsage LoopProbe::usage() const noexcept {
  ResourceUsage d;
  d.voluntary_switches = after_.voluntary_switches - before_.voluntary_switches;
  d.involuntary_switches = after_.involuntary_switches - before_.involuntary_switches;
  d.user_us = after_.user_us - before_.user_us;
  d.system_us = after_.system_us - before_.system_us;
  d.max_rss_kb = after_.max_rss_kb;
  return d;
}

}  // namespace detail

Measurement::Measurement(const DriverOptions& options, double clock_read_cost_ns)
    : options_(options), read_cost_ns_(clock_read_cost_ns) {
  // assign() writes every element, which faults every page in now rather than
  // during the loop.
  buffer_.assign(options.samples, 0);
  if (const char* delay = std::getenv("MWBENCH_INJECT_DELAY_NS"); delay != nullptr) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(delay, &end, 10);
    if (*delay == '\0' || *end != '\0') {
      throw UsageError(std::string("MWBENCH_INJECT_DELAY_NS must be a number of ") +
                       "nanoseconds, not '" + delay + "'");
    }
    injected_delay_ns_ = value;
  }
}

std::string Measurement::read_endpoint() {
  using namespace std::chrono;
  const std::string& path = options_.endpoint_file;
  const auto deadline = steady_clock::now() + duration<double>(options_.timeout_s);
  for (;;) {
    // The server renames a complete file into place, so if it opens, it is whole.
    if (std::ifstream in(path); in) {
      std::string line;
      std::getline(in, line);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (!line.empty()) return line;
      throw std::runtime_error("endpoint file '" + path + "' is empty");
    }
    if (stop_requested()) {
      throw std::runtime_error("stopped while waiting for endpoint file '" + path + "'");
    }
    if (steady_clock::now() >= deadline) {
      throw std::runtime_error("no endpoint file '" + path + "' after " +
                               std::to_string(options_.timeout_s) +
                               " s (--timeout): is the server running?");
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
}

void Measurement::fail(std::string message) {
  if (failure_.empty()) failure_ = message.empty() ? "call failed" : std::move(message);
  request_stop();
}

bool Measurement::batch_long_enough(std::uint64_t batch_ns) const noexcept {
  return static_cast<double>(batch_ns) >= 100.0 * read_cost_ns_;
}

void Measurement::finish(std::uint64_t measured) {
  measured_ = measured;
  if (!failure_.empty()) throw std::runtime_error(failure_);
}

}  // namespace mwbench
