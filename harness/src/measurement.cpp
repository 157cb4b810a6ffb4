// The non-template half of Measurement: buffer, endpoint wait, loop probe.
#include "mwbench/measurement.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
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
  const auto threads = static_cast<std::uint64_t>(std::max(options.threads, 1));
  // With several threads, 16 entries (128 bytes, two cache lines) between
  // two buffers, so that no two threads ever write the same cache line or
  // the pair the adjacent-line prefetcher fetches together.
  stride_ = threads == 1 ? options.samples : options.samples + 16;
  try {
    // assign() writes every element, which faults every page in now rather
    // than during the loop.
    buffer_.assign(stride_ * threads, 0);
    series_.resize(threads);
    if (threads > 1) lanes_.resize(threads);
    open_ = open_calls(options);
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(options.out_of_memory(
        "sample buffers of " + std::to_string(threads) + " x " + std::to_string(options.samples) +
        " samples" + (options.load.open() ? " and the open loop's calls" : "")));
  }
  if (const char* delay = std::getenv("MWBENCH_INJECT_DELAY_NS"); delay != nullptr) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(delay, &end, 10);
    if (*delay == '\0' || *end != '\0') {
      throw UsageError(std::string("MWBENCH_INJECT_DELAY_NS must be a number of ") +
                       "nanoseconds, not '" + delay + "'");
    }
    injected_delay_ns_ = value;
  }
  if (const char* file = std::getenv("MWBENCH_MEASURING_FILE"); file != nullptr) {
    measuring_file_ = file;
  }
}

void Measurement::announce_measuring() noexcept {
  if (measuring_file_.empty() || announced_.exchange(true)) return;
  const int fd = ::open(measuring_file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) ::close(fd);
}

std::uint64_t Measurement::samples_wanted() const noexcept {
  return options_.samples * static_cast<std::uint64_t>(std::max(options_.threads, 1));
}

namespace {

// Waits for the endpoint file at `path` (the server renames a complete file
// into place, so if it opens, it is whole) until the deadline or a stop.
std::string wait_for_endpoint(const std::string& path,
                              std::chrono::steady_clock::time_point deadline, double timeout_s,
                              const std::atomic<bool>& stop) {
  using namespace std::chrono;
  for (;;) {
    if (std::ifstream in(path); in) {
      std::string line;
      std::getline(in, line);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (!line.empty()) return line;
      throw std::runtime_error("endpoint file '" + path + "' is empty");
    }
    if (stop.load(std::memory_order_relaxed)) {
      throw std::runtime_error("stopped while waiting for endpoint file '" + path + "'");
    }
    if (steady_clock::now() >= deadline) {
      throw std::runtime_error("no endpoint file '" + path + "' after " +
                               std::to_string(timeout_s) +
                               " s (--timeout): is the server running?");
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
}

}  // namespace

std::string Measurement::read_endpoint() {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(options_.timeout_s));
  return wait_for_endpoint(options_.endpoint_file, deadline, options_.timeout_s, stop_);
}

std::vector<std::string> Measurement::read_endpoints() {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(options_.timeout_s));
  std::vector<std::string> endpoints;
  for (const auto& path : options_.endpoint_files) {
    endpoints.push_back(wait_for_endpoint(path, deadline, options_.timeout_s, stop_));
  }
  return endpoints;
}

void Measurement::fail(std::string message) {
  {
    std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = message.empty() ? "call failed" : std::move(message);
  }
  request_stop();
}

bool Measurement::batch_long_enough(std::uint64_t batch_ns) const noexcept {
  return static_cast<double>(batch_ns) >= 100.0 * read_cost_ns_;
}

void Measurement::start_run() {
  if (open_) {
    throw std::logic_error("--load " + to_string(options_.load) +
                           ": the driver measured with a closed loop; an open load is "
                           "measured by Measurement::run_open()");
  }
  if (ran_) throw std::logic_error("Measurement::run() called twice");
  ran_ = true;
}

NamedSeries& Measurement::named_series(const std::string& name, const std::string& part_of) {
  if (ran_) throw std::logic_error("named series '" + name + "' declared after run()");
  if (options_.batch && *options_.batch != 1) {
    throw UsageError("--batch " + std::to_string(*options_.batch) +
                     ": a sample with named series is one call; use --batch 1");
  }
  if (!valid_series_name(name)) {
    throw UsageError("named series '" + name + "': a name is [a-z][a-z0-9_]*, at most 64 long");
  }
  bool parent_found = part_of.empty();
  for (const NamedSeries& series : named_) {
    if (series.name() == name) throw UsageError("named series '" + name + "' declared twice");
    parent_found = parent_found || series.name() == part_of;
  }
  if (!parent_found) {
    throw UsageError("named series '" + name + "' is part of '" + part_of +
                     "', which is not declared before it");
  }
  return named_.emplace_back(name, part_of, options_.samples);
}

void Measurement::run_reported(
    const std::function<std::vector<std::uint64_t>(std::uint64_t)>& collect) {
  require_one_thread(
      "samples a driver reports come from one application; it must declare "
      "max_threads 1");
  if (options_.batch && *options_.batch != 1) {
    throw UsageError("--batch " + std::to_string(*options_.batch) +
                     ": each sample the application timed is one; use --batch 1");
  }
  refuse_named_series("run_reported()");
  start_run();
  reported_ = true;
  batch_ = 1;
  probe_.start();
  announce_measuring();
  const std::vector<std::uint64_t> values = collect(options_.warmup + options_.samples);
  probe_.stop();
  const std::uint64_t dropped = std::min<std::uint64_t>(values.size(), options_.warmup);
  const std::uint64_t kept = std::min<std::uint64_t>(values.size() - dropped, buffer_.size());
  std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(dropped), kept, buffer_.begin());
  warmup_done_ = dropped;
  finish(kept);
}

void Measurement::require_one_thread(const char* why) const {
  if (options_.threads != 1) {
    throw std::logic_error("--threads " + std::to_string(options_.threads) + ": " + why);
  }
}

void Measurement::refuse_named_series(const char* how) const {
  if (!named_.empty()) {
    throw std::logic_error(std::string("named series are measured by run() only, not by ") + how);
  }
}

void Measurement::settle_lanes() noexcept {
  // One batch size for all: the result header has one. The largest any
  // thread probed makes every thread's batches long enough.
  batch_ = 1;
  warmup_done_ = options_.warmup;
  for (const Lane& lane : lanes_) {
    batch_ = std::max(batch_, lane.batch);
    warmup_done_ = std::min(warmup_done_, lane.warmup_done);
  }
}

void Measurement::finish(std::uint64_t measured) {
  measured_ = measured;
  series_[0] = Series{measured, probe_.wall_ns()};
  measured_wall_ns_ = probe_.wall_ns();
  {
    std::lock_guard lock(failure_mutex_);
    if (!failure_.empty()) throw std::runtime_error(failure_);
  }
  for (const NamedSeries& series : named_) series.check_complete(measured);
}

void Measurement::finish_lanes() {
  // A thread stopped early leaves a gap after its samples: move the later
  // series down so that all are contiguous, series after series. Each moves
  // towards the front, so memmove never overwrites what is still to move.
  std::uint64_t total = 0;
  std::uint64_t first_start = UINT64_MAX;
  std::uint64_t last_end = 0;
  for (std::size_t t = 0; t < lanes_.size(); ++t) {
    const Lane& lane = lanes_[t];
    if (lane.measured > 0 && total != t * stride_) {
      std::memmove(buffer_.data() + total, buffer_.data() + t * stride_,
                   lane.measured * sizeof(std::uint64_t));
    }
    total += lane.measured;
    series_[t] = Series{lane.measured, lane.end_ns - lane.start_ns};
    if (lane.end_ns != 0) {  // the loop ran
      first_start = std::min(first_start, lane.start_ns);
      last_end = std::max(last_end, lane.end_ns);
    }
  }
  measured_ = total;
  measured_wall_ns_ = last_end > first_start ? last_end - first_start : 0;
  std::lock_guard lock(failure_mutex_);
  if (!failure_.empty()) throw std::runtime_error(failure_);
}

}  // namespace mwbench
