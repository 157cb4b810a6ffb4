// The bodies of Measurement's templates (measurement.hpp): the measured
// loops, which the call inlines into. Internal to the harness: included by
// measurement.hpp only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "mwbench/clock.hpp"
#include "mwbench/detail/crew.hpp"

namespace mwbench {

namespace detail {
// The call, slowed by MWBENCH_INJECT_DELAY_NS: a type of its own, so that
// the normal loop has no trace of it.
template <class Call>
auto slowed(Call& call, std::uint64_t delay) {
  return [&call, delay] {
    call();
    const std::uint64_t until = now_ns() + delay;
    while (now_ns() < until) {
    }
  };
}
}  // namespace detail

template <class Call>
void Measurement::run(Call&& call) {
  require_one_thread(
      "the driver measures with Measurement::run(), on one thread; it must use run_threads() "
      "or declare max_threads 1");
  if (injected_delay_ns_ == 0) {
    measure_loop(call);
    return;
  }
  auto slow = detail::slowed(call, injected_delay_ns_);
  measure_loop(slow);
}

template <class Send>
void Measurement::run_chained(Send&& send) {
  require_one_thread(
      "the driver measures with Measurement::run_chained(), on one chain; it must declare "
      "max_threads 1");
  refuse_named_series("run_chained()");
  using S = std::remove_reference_t<Send>;
  start_chain([](void* sender) { (*static_cast<S*>(sender))(); }, &send);
  advance_chain(/*completed=*/false);  // the first call, from this thread
  wait_for_chain();
}

template <class Send>
void Measurement::run_open(Send&& send) {
  MonotonicClock clock;
  run_open_on(clock, send);
}

template <class Send, class WaitUntil>
void Measurement::run_open(Send&& send, WaitUntil&& wait_until) {
  ReceivingClock<std::remove_reference_t<WaitUntil>> clock{wait_until};
  run_open_on(clock, send);
}

template <class Clock, class Send>
void Measurement::run_open_on(Clock& clock, Send& send) {
  OpenLoopCalls& calls = begin_open();
  if (injected_delay_ns_ == 0) {
    send_open(clock, calls, send);
    return;
  }
  auto slow = [&send, delay = injected_delay_ns_](std::uint64_t call) {
    send(call);
    const std::uint64_t until = now_ns() + delay;
    while (now_ns() < until) {
    }
  };
  send_open(clock, calls, slow);
}

template <class Clock, class Send>
void Measurement::send_open(Clock& clock, OpenLoopCalls& calls, Send& send) {
  const std::uint64_t warmup = calls.warmup();
  const std::uint64_t total = calls.total();
  calls.start_at(clock.now());
  std::uint64_t next = send_on_schedule(clock, calls, send, stop_, 0, warmup);
  calls.spin_margin().settle();
  warmup_done_ = next;
  if (next == warmup) {
    probe_.start();
    // The first measured call on its own, so that it can be announced (a
    // test aid) between two sends.
    next = send_on_schedule(clock, calls, send, stop_, warmup, std::min(warmup + 1, total));
    if (next > warmup) announce_measuring();
    next = send_on_schedule(clock, calls, send, stop_, next, total);
  }
  if constexpr (Clock::kReceives) {
    receive_replies(clock, calls, next, open_patience_ns(), stop_);
  } else {
    calls.wait_for_replies(next, std::chrono::nanoseconds(open_patience_ns()), stop_);
  }
  end_open(next);
}

template <class Call>
void Measurement::measure_loop(Call& call) {
  start_run();
  for (; warmup_done_ < options_.warmup && !stop_requested(); ++warmup_done_) call();
  // With named series a sample is one call (named_series()), so nothing is probed.
  batch_ = options_.batch ? *options_.batch : named_.empty() ? choose_batch(call) : 1;
  for (NamedSeries& series : named_) series.restart();

  probe_.start();
  // The first sample on its own, so that it can be announced (a test aid)
  // between two samples rather than inside the loop.
  std::uint64_t n =
      timed_loop(call, buffer_.data(), std::min<std::size_t>(1, buffer_.size()), batch_);
  if (n != 0) announce_measuring();
  n += timed_loop(call, buffer_.data() + n, buffer_.size() - n, batch_);
  probe_.stop();
  finish(n);
}

template <class Call>
std::uint64_t Measurement::timed_loop(Call& call, std::uint64_t* const out,
                                      const std::uint64_t wanted, const std::uint64_t batch) {
  // Arguments, not members, so the compiler keeps them in registers across
  // the call.
  std::uint64_t n = 0;
  for (; n < wanted; ++n) {
    if (stop_.load(std::memory_order_relaxed)) break;
    const std::uint64_t t0 = now_ns();
    for (std::uint64_t k = 0; k < batch; ++k) call();
    out[n] = now_ns() - t0;
  }
  return n;
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

template <class Setup>
void Measurement::run_threads(Setup&& setup) {
  if (options_.threads == 1) {
    auto call = setup(0);
    run(call);
    return;
  }
  refuse_named_series("run_threads() with several threads");
  start_run();
  detail::Crew crew(options_.threads, [this] { request_stop(); });
  crew.run([&](int thread) { lane(setup, thread, crew); });
  finish_lanes();
}

template <class Setup>
void Measurement::lane(Setup& setup, int thread, detail::Crew& crew) {
  using Call = std::decay_t<std::invoke_result_t<Setup&, int>>;
  std::optional<Call> call;  // built on this thread, destroyed on it after the last loop
  crew.step([&] { call.emplace(setup(thread)); });
  crew.sync();
  Call* const own = call ? &*call : nullptr;
  if (injected_delay_ns_ == 0 || own == nullptr) {
    lane_loops(own, lanes_[thread], thread, crew);
  } else {
    auto slow = detail::slowed(*own, injected_delay_ns_);
    lane_loops(&slow, lanes_[thread], thread, crew);
  }
}

// `call` is null if this thread's setup failed. Then the crew has failed and
// skips every step, but every thread still passes every sync, so none waits
// forever for this one.
template <class Call>
void Measurement::lane_loops(Call* call, Lane& lane, int thread, detail::Crew& crew) {
  crew.step([&] {
    for (; lane.warmup_done < options_.warmup && !stop_requested(); ++lane.warmup_done) (*call)();
    lane.batch = options_.batch ? *options_.batch : choose_batch(*call);
  });
  crew.sync([this] {
    settle_lanes();
    probe_.start();
  });
  crew.step([&] {
    std::uint64_t* const out = buffer_.data() + static_cast<std::size_t>(thread) * stride_;
    lane.start_ns = now_ns();
    lane.measured = timed_loop(*call, out, std::min<std::uint64_t>(1, options_.samples), batch_);
    if (lane.measured != 0) announce_measuring();
    lane.measured +=
        timed_loop(*call, out + lane.measured, options_.samples - lane.measured, batch_);
    lane.end_ns = now_ns();
  });
  crew.sync([this] { probe_.stop(); });
}

}  // namespace mwbench
