// The open loop's schedule and bookkeeping (open_loop.hpp).
#include "mwbench/open_loop.hpp"

#include <sched.h>

#include <cerrno>
#include <cmath>
#include <ctime>
#include <random>
#include <string>

namespace mwbench {

void schedule_offsets(const Load& load, std::uint64_t seed, std::span<std::uint64_t> offsets) {
  const double gap_ns = load.mean_gap_ns();
  if (load.kind == Load::Kind::constant) {
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      offsets[i] = static_cast<std::uint64_t>(std::llround(static_cast<double>(i) * gap_ns));
    }
    return;
  }
  std::mt19937_64 generator(seed);
  double at = 0;
  for (std::uint64_t& offset : offsets) {
    offset = static_cast<std::uint64_t>(std::llround(at));
    // The top 53 bits: a double in [0, 1), the same on every platform.
    const double u = static_cast<double>(generator() >> 11) * 0x1.0p-53;
    at += -std::log1p(-u) * gap_ns;
  }
}

nlohmann::json OpenLoopSummary::to_json() const {
  nlohmann::json out = {{"kind", load.kind == Load::Kind::constant ? "constant" : "poisson"},
                        {"rate_per_s", load.rate_per_s},
                        {"calls", calls},
                        {"offered_per_s", offered_per_s},
                        {"achieved_per_s", achieved_per_s},
                        {"late_sends", late_sends},
                        {"late_threshold_ns", late_threshold_ns},
                        {"max_send_lag_ns", max_send_lag_ns},
                        {"outstanding_at_end", outstanding_at_end},
                        {"lost", lost},
                        {"spin_margin_ns", spin_margin_ns},
                        {"calibration_sleeps", calibration_sleeps},
                        {"calibration_lateness_p90_ns", calibration_lateness_p90_ns}};
  if (load.kind == Load::Kind::poisson) out["seed"] = seed;
  return out;
}

OpenLoopCalls::OpenLoopCalls(const Load& load, std::uint64_t seed, std::uint64_t warmup,
                             std::uint64_t samples)
    : load_(load), seed_(seed), warmup_(warmup), spin_margin_(load.mean_gap_ns()) {
  const std::uint64_t total = warmup + samples;
  // assign() and the loop write every element: no page fault while sending.
  intended_.assign(total, 0);
  sent_.assign(total, 0);
  done_ = std::make_unique<std::atomic<std::uint64_t>[]>(total);
  for (std::uint64_t i = 0; i < total; ++i) done_[i].store(0, std::memory_order_relaxed);
  schedule_offsets(load, seed, intended_);
}

void OpenLoopCalls::start_at(std::uint64_t start_ns) noexcept {
  for (std::uint64_t& t : intended_) t += start_ns;
}

void OpenLoopCalls::complete(std::uint64_t call, std::uint64_t done_ns) noexcept {
  if (call >= intended_.size()) {
    std::uint64_t none = 0;
    unknown_call_.compare_exchange_strong(none, call + 1, std::memory_order_relaxed);
    return;
  }
  if (done_[call].exchange(done_ns, std::memory_order_relaxed) != 0) {
    std::uint64_t none = 0;
    twice_call_.compare_exchange_strong(none, call + 1, std::memory_order_relaxed);
    return;
  }
  const std::uint64_t answered = answered_.fetch_add(1, std::memory_order_seq_cst) + 1;
  // Only the last reply wakes the waiting sender, and only once it waits:
  // while calls go out, a reply costs no system call. Either this thread sees
  // `waiting_` or the waiter sees the count (both sequentially consistent).
  if (waiting_.load(std::memory_order_seq_cst) &&
      answered == target_.load(std::memory_order_relaxed)) {
    { const std::lock_guard lock(mutex_); }
    cv_.notify_all();
  }
}

bool OpenLoopCalls::wait_for_replies(std::uint64_t sent, std::chrono::nanoseconds patience,
                                     const std::atomic<bool>& stop) {
  std::unique_lock lock(mutex_);
  target_.store(sent, std::memory_order_relaxed);
  waiting_.store(true, std::memory_order_seq_cst);
  std::uint64_t seen = answered_.load(std::memory_order_seq_cst);
  while (answered_.load(std::memory_order_seq_cst) < sent && !stop.load()) {
    if (cv_.wait_for(lock, patience) == std::cv_status::no_timeout) continue;
    // Woken by the clock: give up only if no reply came meanwhile.
    const std::uint64_t now = answered_.load(std::memory_order_seq_cst);
    if (now == seen) break;
    seen = now;
  }
  waiting_.store(false, std::memory_order_seq_cst);
  return answered_.load(std::memory_order_acquire) >= sent;
}

void OpenLoopCalls::wake_for_stop() {
  { const std::lock_guard lock(mutex_); }
  cv_.notify_all();
}

OpenLoopSummary OpenLoopCalls::collect(std::uint64_t sent, std::uint64_t wait_end_ns,
                                       std::span<std::uint64_t> response, NamedSeries& service,
                                       NamedSeries& lag) const {
  OpenLoopSummary s;
  s.load = load_;
  s.seed = seed_;
  s.late_threshold_ns = static_cast<std::uint64_t>(std::llround(load_.mean_gap_ns()));
  s.spin_margin_ns = spin_margin_.margin_ns();
  s.calibration_sleeps = spin_margin_.sleeps();
  s.calibration_lateness_p90_ns = spin_margin_.lateness_percentile_ns();
  service.restart();
  lag.restart();
  if (sent <= warmup_) return s;
  const std::uint64_t first_intended = intended_[warmup_];
  const std::uint64_t last_sent = sent_[sent - 1];
  std::uint64_t last_done = 0;
  for (std::uint64_t i = warmup_; i < sent; ++i) {
    // The clock is read before send() and after the reply, on one clock; the
    // guards keep a driver's misuse from wrapping around.
    const std::uint64_t send_lag = sent_[i] > intended_[i] ? sent_[i] - intended_[i] : 0;
    s.max_send_lag_ns = std::max(s.max_send_lag_ns, send_lag);
    if (send_lag > s.late_threshold_ns) ++s.late_sends;
    const std::uint64_t done = done_[i].load(std::memory_order_relaxed);
    if (done == 0 || done > last_sent) ++s.outstanding_at_end;
    if (done == 0 || s.answered == response.size()) continue;
    response[s.answered++] = done > intended_[i] ? done - intended_[i] : 0;
    service.record(done > sent_[i] ? done - sent_[i] : 0);
    lag.record(send_lag);
    last_done = std::max(last_done, done);
  }
  s.calls = sent - warmup_;
  s.lost = s.calls - s.answered;
  const std::uint64_t span = intended_[sent - 1] - first_intended;
  // One call spans no time: its rate is the schedule's.
  s.offered_per_s =
      span > 0 ? static_cast<double>(s.calls) * 1e9 / static_cast<double>(span) : load_.rate_per_s;
  const std::uint64_t end = s.lost > 0 ? std::max(wait_end_ns, last_done) : last_done;
  s.measured_wall_ns = end > first_intended ? end - first_intended : 0;
  const std::uint64_t answered_span = last_done > first_intended ? last_done - first_intended : 0;
  s.achieved_per_s =
      answered_span > 0 ? static_cast<double>(s.answered) * 1e9 / static_cast<double>(answered_span)
                        : 0;
  return s;
}

std::string OpenLoopCalls::error() const {
  if (const std::uint64_t call = unknown_call_.load(); call != 0) {
    return "completed(" + std::to_string(call - 1) + "): no such call (the open loop has " +
           std::to_string(total()) + ", numbered from 0)";
  }
  if (const std::uint64_t call = twice_call_.load(); call != 0) {
    return "completed(" + std::to_string(call - 1) + ") twice: each call is answered once";
  }
  return "";
}

void MonotonicClock::sleep_until(std::uint64_t t_ns) const noexcept {
  timespec until{};
  until.tv_sec = static_cast<time_t>(t_ns / 1'000'000'000u);
  until.tv_nsec = static_cast<long>(t_ns % 1'000'000'000u);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

void MonotonicClock::spin() const noexcept { sched_yield(); }

}  // namespace mwbench
