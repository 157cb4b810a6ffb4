// Measurement::run_open(): the non-template half (measurement.hpp says what
// the open loop does; open_loop.hpp how it keeps its calls).
#include <sys/prctl.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "mwbench/measurement.hpp"

namespace mwbench {

namespace {

// A seed for a Poisson schedule the command line did not seed: 63 random
// bits, so that it also fits a reader's signed 64-bit integer (Java's long,
// SQLite's INTEGER).
std::uint64_t drawn_seed() {
  std::random_device device;
  const std::uint64_t high = device();
  return ((high << 32) | device()) >> 1;
}

}  // namespace

std::unique_ptr<OpenLoopCalls> Measurement::open_calls(const DriverOptions& options) {
  if (!options.load.open()) return nullptr;
  const std::uint64_t seed = options.load_seed ? *options.load_seed : drawn_seed();
  return std::make_unique<OpenLoopCalls>(options.load, seed, options.warmup, options.samples);
}

void Measurement::request_stop() noexcept {
  stop_.store(true, std::memory_order_relaxed);
  if (open_) open_->wake_for_stop();  // the sender may be waiting for the last replies
}

OpenLoopCalls& Measurement::begin_open() {
  if (!open_) {
    throw std::logic_error(
        "Measurement::run_open() needs an open --load (constant:RATE or poisson:RATE); "
        "this one is closed");
  }
  require_one_thread("an open loop sends from one thread");
  if (options_.batch && *options_.batch != 1) {
    throw UsageError("--batch " + std::to_string(*options_.batch) +
                     ": an open loop times each call on its own; use --batch 1");
  }
  refuse_named_series("run_open(), whose named series are its own");
  if (ran_) throw std::logic_error("Measurement::run_open() called twice");
  ran_ = true;
  batch_ = 1;
  named_.emplace_back("service_time", "", options_.samples);
  named_.emplace_back("send_lag", "", options_.samples);
  // The sender sleeps to each intended time (less its spin margin): with the
  // default slack of 50 us, each wake-up could come that late.
  timer_slack_ns_ = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  return *open_;
}

std::uint64_t Measurement::open_patience_ns() const noexcept {
  // Bounded, so that adding it to a clock reading cannot overflow.
  return static_cast<std::uint64_t>(std::llround(std::min(options_.timeout_s * 1e9, 1e18)));
}

void Measurement::end_open(std::uint64_t sent) {
  const std::uint64_t wait_end_ns = now_ns();
  if (warmup_done_ == options_.warmup) probe_.stop();  // started after the warm-up
  if (timer_slack_ns_ > 0) prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(timer_slack_ns_));
  open_summary_ = open_->collect(sent, wait_end_ns, buffer_, named_[0], named_[1]);
  if (const std::string error = open_->error(); !error.empty()) fail(error);
  finish(open_summary_->answered);
  measured_wall_ns_ = open_summary_->measured_wall_ns;
  series_[0].wall_ns = measured_wall_ns_;
}

}  // namespace mwbench
