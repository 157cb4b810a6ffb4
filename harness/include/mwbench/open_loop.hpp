// The open loop (--load constant:RATE or poisson:RATE): calls start on a
// schedule of intended times, whatever the replies do, so that a stall of
// the system measured delays every call that was due during it, as it
// delays a user's requests (no coordinated omission). Drivers use it through
// Measurement::run_open() and completed(); the parts are public so that
// tests drive them with a simulated clock and a simulated server.
//
// Each call i has an intended start (the schedule), a send time (the clock
// read just before send(i)) and a done time (the clock read in completed(i)).
// Its sample is done - intended: the response time a caller arriving on
// schedule sees. The service time (done - sent) and the send lag (sent -
// intended) are named series beside it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "mwbench/clock.hpp"
#include "mwbench/load.hpp"
#include "mwbench/named_series.hpp"
#include "mwbench/spin_margin.hpp"

namespace mwbench {

// The intended start of each call from the loop's start, in ns: call 0 at
// 0, then gaps of 1/RATE (constant: offset i is i/RATE, rounded, so the
// times never drift) or exponential gaps of mean 1/RATE (poisson: a
// std::mt19937_64 seeded with `seed`, each gap -ln(1 - u) / RATE for u
// uniform in [0, 1) from its top 53 bits, so one seed gives one schedule).
void schedule_offsets(const Load& load, std::uint64_t seed, std::span<std::uint64_t> offsets);

// What the result header's "load" object says
// (docs/driver-contract-open-loop.md), for the measured calls.
struct OpenLoopSummary {
  Load load;
  std::uint64_t seed = 0;        // written for poisson only
  std::uint64_t calls = 0;       // measured calls sent
  std::uint64_t answered = 0;    // of those, answered before the wait ended
  std::uint64_t lost = 0;        // calls - answered; their samples are left out
  double offered_per_s = 0;      // calls / (last intended - first intended)
  double achieved_per_s = 0;     // answered / (last done - first intended)
  std::uint64_t late_sends = 0;  // sent more than late_threshold_ns after their intended time
  std::uint64_t late_threshold_ns = 0;   // one mean gap, 1/RATE
  std::uint64_t max_send_lag_ns = 0;     // the largest sent - intended
  std::uint64_t outstanding_at_end = 0;  // unanswered at the instant of the last send
  std::uint64_t measured_wall_ns = 0;    // first intended to the last done (or the wait's end)
  std::uint64_t spin_margin_ns = 0;      // SpinMargin::margin_ns() of the measured calls
  std::uint64_t calibration_sleeps = 0;  // the warm-up sleeps it was calibrated from
  std::uint64_t calibration_lateness_p90_ns = 0;  // their lateness's 90th percentile

  nlohmann::json to_json() const;
};

// The calls of one open loop, --warmup warm-up calls then --samples measured
// ones: their times in arrays allocated and touched up front, the count of
// replies, and the wait for the last of them. complete() may run on any
// thread; the rest on the sending thread.
class OpenLoopCalls {
 public:
  // Allocates the arrays (warmup + samples entries each) and computes the
  // schedule. Throws std::bad_alloc.
  OpenLoopCalls(const Load& load, std::uint64_t seed, std::uint64_t warmup, std::uint64_t samples);

  std::uint64_t total() const noexcept { return intended_.size(); }
  std::uint64_t warmup() const noexcept { return warmup_; }
  const Load& load() const noexcept { return load_; }
  std::uint64_t seed() const noexcept { return seed_; }
  // The sender's margin: calibrated during the warm-up, then settled.
  SpinMargin& spin_margin() noexcept { return spin_margin_; }

  // Places the schedule: call i is intended at start_ns + its offset.
  void start_at(std::uint64_t start_ns) noexcept;
  std::uint64_t intended_ns(std::uint64_t call) const noexcept { return intended_[call]; }
  // The clock read just before send(call).
  void record_send(std::uint64_t call, std::uint64_t sent_ns) noexcept { sent_[call] = sent_ns; }

  // The reply to `call` arrived at `done_ns` (never 0). A call number beyond
  // the schedule, or a second reply, is remembered as the driver's error
  // (error()) and otherwise ignored.
  void complete(std::uint64_t call, std::uint64_t done_ns) noexcept;
  std::uint64_t answered() const noexcept { return answered_.load(std::memory_order_acquire); }

  // After calls 0 .. sent-1 went out: waits until each is answered, or until
  // no reply came for `patience`, or until wake_for_stop(). Returns whether
  // every call was answered.
  bool wait_for_replies(std::uint64_t sent, std::chrono::nanoseconds patience,
                        const std::atomic<bool>& stop);
  // Ends a wait_for_replies() early (a stop request); any thread.
  void wake_for_stop();

  // The measured calls among the first `sent`, once the wait has ended at
  // `wait_end_ns`: their summary, and for each answered one, in call order,
  // its response time (done - intended) into `response` (at least --samples
  // entries), its service time (done - sent) into `service` and its send lag
  // (sent - intended) into `lag`. Each call's reply time is read once, so a
  // reply that comes meanwhile (after the wait) counts nowhere or everywhere.
  OpenLoopSummary collect(std::uint64_t sent, std::uint64_t wait_end_ns,
                          std::span<std::uint64_t> response, NamedSeries& service,
                          NamedSeries& lag) const;

  // "" or what the driver did wrong through complete(), for the run's error.
  std::string error() const;

 private:
  Load load_;
  std::uint64_t seed_;
  std::uint64_t warmup_;
  SpinMargin spin_margin_;
  std::vector<std::uint64_t> intended_;  // offsets until start_at(), then times
  std::vector<std::uint64_t> sent_;
  // Written by the replying thread, read after the wait: a reply that comes
  // later (a lost call's) races with nothing.
  std::unique_ptr<std::atomic<std::uint64_t>[]> done_;
  std::atomic<std::uint64_t> answered_{0};
  std::atomic<std::uint64_t> target_{0};  // replies wait_for_replies() waits for
  std::atomic<bool> waiting_{false};
  std::mutex mutex_;  // with cv_: the wait at the end
  std::condition_variable cv_;
  std::atomic<std::uint64_t> unknown_call_{0};  // call + 1 of the first bad complete()
  std::atomic<std::uint64_t> twice_call_{0};    // call + 1 of the first repeated one
};

// The sender waits on a clock: `now()`; `sleep_until(t)`, which returns at t
// or later, or earlier when it has received replies; `spin()`, one turn of
// the wait without sleep, which gives the CPU to any thread that wants it;
// and `poll()`, which takes the replies already there without waiting (a
// clock that does not receive does nothing). `kReceives` says whether the
// clock receives the replies itself (then the wait for the last ones is its
// own too).
//
// The real clock of run_open() when a reader thread or a callback receives
// the replies: CLOCK_MONOTONIC, sleeps to an absolute time with
// clock_nanosleep(TIMER_ABSTIME) (with the 1 ns timer slack that run_open()
// sets), and spins with sched_yield().
struct MonotonicClock {
  static constexpr bool kReceives = false;
  std::uint64_t now() const noexcept { return now_ns(); }
  void sleep_until(std::uint64_t t_ns) const noexcept;
  void spin() const noexcept;
  void poll() const noexcept {}
};

// The real clock of run_open(send, wait_until): the driver receives on the
// sending thread. `wait_until(deadline_ns)` receives replies (calling
// completed()) until CLOCK_MONOTONIC reaches the deadline, and may return
// earlier, after a reply; a deadline that has passed (0 included) takes what
// is there without blocking. Its spins poll for replies before they yield,
// so that a reply is timed when it comes, not after the next send.
template <class WaitUntil>
struct ReceivingClock {
  static constexpr bool kReceives = true;
  WaitUntil& wait_until;
  std::uint64_t now() const noexcept { return now_ns(); }
  void sleep_until(std::uint64_t t_ns) { wait_until(t_ns); }
  void poll() { wait_until(std::uint64_t{0}); }
  void spin() {
    poll();
    MonotonicClock{}.spin();
  }
};

// The longest single sleep of the sender, so that a stop request is seen
// within it even at a rate of a call per minute.
inline constexpr std::uint64_t kMaxSleepNs = 50'000'000;

// Waits on `clock` until `due`: sleeps until the spin margin before it (all
// the way while the margin is calibrating, recording how late each sleep
// woke), then spins. A time that has passed is not waited for, but the
// replies already there are taken (poll()). Returns false once `stop` is set.
template <class Clock>
bool wait_until_due(Clock& clock, std::uint64_t due, SpinMargin& margin,
                    const std::atomic<bool>& stop) {
  std::uint64_t now = clock.now();
  if (now >= due) clock.poll();
  while (now < due) {
    if (stop.load(std::memory_order_relaxed)) return false;
    if (due - now > margin.margin_ns()) {
      const std::uint64_t until = std::min(due - margin.margin_ns(), now + kMaxSleepNs);
      clock.sleep_until(until);
      now = clock.now();
      // A sleep that a reply ended early tells nothing of the timer.
      if (now >= until && margin.calibrating()) margin.record_lateness(now - until);
    } else {
      clock.spin();
      now = clock.now();
    }
  }
  return !stop.load(std::memory_order_relaxed);
}

// Sends calls first .. end-1 of `calls`, each at its intended time on
// `clock` (wait_until_due()), reading the clock, recording it and calling
// send(call). Stops before a call once `stop` is set. Returns the number of
// the next call not sent (`end` if all were).
template <class Clock, class Send>
std::uint64_t send_on_schedule(Clock& clock, OpenLoopCalls& calls, Send& send,
                               const std::atomic<bool>& stop, std::uint64_t first,
                               std::uint64_t end) {
  for (std::uint64_t call = first; call < end; ++call) {
    if (!wait_until_due(clock, calls.intended_ns(call), calls.spin_margin(), stop)) return call;
    calls.record_send(call, clock.now());
    send(call);
  }
  return end;
}

// After calls 0 .. sent-1 went out, on a clock that receives the replies:
// waits on it until each is answered, or until no reply came for
// `patience_ns`, or until `stop`. Returns whether every call was answered.
template <class Clock>
bool receive_replies(Clock& clock, const OpenLoopCalls& calls, std::uint64_t sent,
                     std::uint64_t patience_ns, const std::atomic<bool>& stop) {
  std::uint64_t seen = calls.answered();
  std::uint64_t last_reply = clock.now();
  while (seen < sent && !stop.load(std::memory_order_relaxed)) {
    const std::uint64_t now = clock.now();
    if (now - last_reply >= patience_ns) break;
    clock.sleep_until(std::min(last_reply + patience_ns, now + kMaxSleepNs));
    if (const std::uint64_t answered = calls.answered(); answered != seen) {
      seen = answered;
      last_reply = clock.now();
    }
  }
  return calls.answered() >= sent;
}

}  // namespace mwbench
