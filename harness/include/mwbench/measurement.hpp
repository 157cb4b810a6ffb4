// The measured loop of a client (or collocated) process.
//
// A driver's measure() connects to its middleware, then hands the one call it
// measures to Measurement::run(). The harness owns everything around that call:
// warm-up, batch size, clock reads, the sample buffer, and the wall time, CPU
// and resource use of the loop. run() is a template so the call inlines into
// the loop; the loop itself does no allocation, I/O, logging or locking.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mwbench/clock.hpp"
#include "mwbench/options.hpp"

namespace mwbench {

namespace detail {

struct ResourceUsage {
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
  std::int64_t user_us = 0;
  std::int64_t system_us = 0;
  std::int64_t max_rss_kb = 0;
};

// Wall time, resource use and CPU around one measured loop (or one serve()).
// Resource use is process-wide (RUSAGE_SELF) because middleware may do part of
// a call's work on threads of its own.
class LoopProbe {
 public:
  void start() noexcept;
  void stop() noexcept;

  std::uint64_t wall_ns() const noexcept { return end_ns_ - start_ns_; }
  int cpu_first() const noexcept { return cpu_first_; }
  int cpu_last() const noexcept { return cpu_last_; }
  // Switches and CPU time during the loop; max_rss_kb is the process's peak.
  ResourceUsage usage() const noexcept;

 private:
  std::uint64_t start_ns_ = 0;
  std::uint64_t end_ns_ = 0;
  int cpu_first_ = -1;
  int cpu_last_ = -1;
  ResourceUsage before_;
  ResourceUsage after_;
};

}  // namespace detail

class Measurement {
 public:
  // Allocates and touches the sample buffer (options.samples entries) now, so
  // the loop never takes a page fault on it. run_driver() builds one; tests may
  // too. `clock_read_cost_ns` sets the auto batch size threshold.
  Measurement(const DriverOptions& options, double clock_read_cost_ns);
  Measurement(const Measurement&) = delete;
  Measurement& operator=(const Measurement&) = delete;

  const DriverOptions& options() const noexcept { return options_; }

  // The endpoint the server published in --endpoint-file: waits up to
  // --timeout seconds for the file to appear. Throws std::runtime_error naming
  // the path on timeout, or when a stop was requested while waiting.
  std::string read_endpoint();

  // Runs the warm-up (--warmup calls), picks the batch size (--batch, or auto:
  // the smallest power of two whose batch lasts at least 100 clock reads), then
  // takes --samples samples of batch_size calls each. `call` makes one call.
  // Returns early, keeping what was measured, after request_stop(). Throws
  // std::runtime_error after the loop if the call reported fail().
  template <class Call>
  void run(Call&& call);

  // For use inside the call: reports a correctness failure (an echo that does
  // not match, say). The loop stops before its next sample and run() throws
  // with `message`. Only the first failure is kept.
  void fail(std::string message);

  // Records how the middleware was configured (an ORB's options, a QoS
  // profile), written to the result header as "middleware_config". Call it
  // before run(); later calls replace it.
  void record_middleware_config(nlohmann::json config) { config_ = std::move(config); }
  const nlohmann::json& middleware_config() const noexcept { return config_; }

  // A slowdown injected on purpose, for testing regression detection: the
  // environment variable MWBENCH_INJECT_DELAY_NS makes every measured call
  // busy-wait that long after it returns. Recorded in the result header as
  // "injected_delay_ns"; 0 (no variable) leaves the loop untouched.
  std::uint64_t injected_delay_ns() const noexcept { return injected_delay_ns_; }

  // Asks the loop to stop before its next sample. Safe from any thread; the
  // harness calls it on SIGINT/SIGTERM.
  void request_stop() noexcept { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const noexcept { return stop_.load(std::memory_order_relaxed); }

  // What run() did, for the result file.
  bool ran() const noexcept { return ran_; }
  std::span<const std::uint64_t> samples() const noexcept {
    return {buffer_.data(), measured_};
  }
  std::uint64_t batch_size() const noexcept { return batch_; }
  std::uint64_t warmup_done() const noexcept { return warmup_done_; }
  const detail::LoopProbe& probe() const noexcept { return probe_; }

  // Upper bound of the auto batch size, in case a call costs nothing.
  static constexpr std::uint64_t kMaxAutoBatch = std::uint64_t{1} << 24;

 private:
  template <class Call>
  void measure_loop(Call& call);
  template <class Call>
  std::uint64_t choose_batch(Call& call);
  // Whether a batch measured at `batch_ns` is long enough for auto batching.
  bool batch_long_enough(std::uint64_t batch_ns) const noexcept;
  void finish(std::uint64_t measured);

  const DriverOptions& options_;
  double read_cost_ns_;
  std::vector<std::uint64_t> buffer_;
  std::atomic<bool> stop_{false};
  std::string failure_;
  bool ran_ = false;
  std::uint64_t measured_ = 0;
  std::uint64_t batch_ = 1;
  std::uint64_t warmup_done_ = 0;
  detail::LoopProbe probe_;
  nlohmann::json config_;  // null until recorded
  std::uint64_t injected_delay_ns_ = 0;
};

// ---- implementation of the templates ------------------------------------

template <class Call>
void Measurement::run(Call&& call) {
  if (injected_delay_ns_ == 0) {
    measure_loop(call);
    return;
  }
  // A separate instantiation, so that the normal loop has no trace of this.
  const std::uint64_t delay = injected_delay_ns_;
  auto slowed = [&call, delay] {
    call();
    const std::uint64_t until = now_ns() + delay;
    while (now_ns() < until) {
    }
  };
  measure_loop(slowed);
}

template <class Call>
void Measurement::measure_loop(Call& call) {
  if (ran_) throw std::logic_error("Measurement::run() called twice");
  ran_ = true;

  for (; warmup_done_ < options_.warmup && !stop_requested(); ++warmup_done_) call();
  batch_ = options_.batch ? *options_.batch : choose_batch(call);

  // Locals, so the compiler keeps them in registers across the call.
  std::uint64_t* const out = buffer_.data();
  const std::uint64_t wanted = buffer_.size();
  const std::uint64_t batch = batch_;
  std::uint64_t n = 0;

  probe_.start();
  for (; n < wanted; ++n) {
    if (stop_.load(std::memory_order_relaxed)) break;
    const std::uint64_t t0 = now_ns();
    for (std::uint64_t k = 0; k < batch; ++k) call();
    out[n] = now_ns() - t0;
  }
  probe_.stop();
  finish(n);
}

template <class Call>
std::uint64_t Measurement::choose_batch(Call& call) {
  // Each size is timed a few times and judged by the median, so one preempted
  // probe does not pick a batch that is too small.
  constexpr int kProbes = 5;
  std::uint64_t batch = 1;
  for (; batch < kMaxAutoBatch && !stop_requested(); batch *= 2) {
    std::uint64_t took[kProbes];
    for (auto& t : took) {
      const std::uint64_t t0 = now_ns();
      for (std::uint64_t k = 0; k < batch; ++k) call();
      t = now_ns() - t0;
    }
    std::sort(took, took + kProbes);
    if (batch_long_enough(took[kProbes / 2])) break;
  }
  return batch;
}

}  // namespace mwbench
