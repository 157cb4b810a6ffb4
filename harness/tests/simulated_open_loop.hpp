// A simulated clock and FIFO server for the open loop's tests: times are
// exact and nothing depends on the machine. The clock moves only when the
// sender sleeps or spins (or a send costs time), delivering the server's
// replies as time passes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "mwbench/open_loop.hpp"

namespace mwbench::testing {

inline constexpr std::uint64_t kMs = 1'000'000;
inline constexpr std::uint64_t kUs = 1'000;
inline constexpr std::uint64_t kStart = 1'000 * kMs;  // the simulation's clock at the start

// One server thread answering requests in order (FIFO), each after
// `service_ns` of work, except that it does nothing during the stall
// [stall_at, stall_at + stall_ns): a request that would start then waits
// for the stall's end. It answers no call from `answers` on.
struct SimulatedServer {
  std::uint64_t service_ns = 0;
  std::uint64_t stall_at = UINT64_MAX;
  std::uint64_t stall_ns = 0;
  std::uint64_t answers = UINT64_MAX;
  std::uint64_t free_at = 0;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> replies{};  // call, done time

  // The time at which a request that arrives at `now` is answered.
  std::uint64_t serve(std::uint64_t now) {
    std::uint64_t start = std::max(now, free_at);
    if (start >= stall_at && start < stall_at + stall_ns) start = stall_at + stall_ns;
    free_at = start + service_ns;
    return free_at;
  }
  void request(std::uint64_t call, std::uint64_t now) {
    const std::uint64_t done = serve(now);
    if (call < answers) replies.emplace_back(call, done);
  }
  // Hands every reply due by `t` to the open loop.
  void deliver_until(std::uint64_t t, OpenLoopCalls& calls) {
    while (!replies.empty() && replies.front().second <= t) {
      calls.complete(replies.front().first, replies.front().second);
      replies.pop_front();
    }
  }
};

// How the simulated clock waits: each sleep wakes up late by the next of
// `lateness` (in turn; none: on time), each turn of a spin costs `spin_ns`,
// and with `wake_on_reply` a sleep ends at the first reply that comes
// before its end, as a driver's wait_until() does.
struct SimulatedWaits {
  std::vector<std::uint64_t> lateness{};
  std::uint64_t spin_ns = kUs;
  bool wake_on_reply = false;
};

// The clock receives the server's replies itself (kReceives), like a
// driver's wait_until(), whether or not its sleeps end at a reply.
struct SimulatedClock {
  static constexpr bool kReceives = true;
  std::uint64_t t = kStart;
  SimulatedServer* server = nullptr;
  OpenLoopCalls* calls = nullptr;
  SimulatedWaits waits{};
  std::uint64_t sleeps = 0;
  std::uint64_t spins = 0;
  std::uint64_t polls = 0;

  std::uint64_t now() const { return t; }
  void sleep_until(std::uint64_t until) {
    const std::uint64_t late =
        waits.lateness.empty() ? 0 : waits.lateness[sleeps % waits.lateness.size()];
    ++sleeps;
    std::uint64_t wake = std::max(t, until + late);
    if (waits.wake_on_reply && !server->replies.empty()) {
      wake = std::max(t, std::min(wake, server->replies.front().second));
    }
    t = wake;
    server->deliver_until(t, *calls);
  }
  void spin() {
    ++spins;
    t += waits.spin_ns;
    server->deliver_until(t, *calls);
  }
  void poll() {
    ++polls;
    server->deliver_until(t, *calls);
  }
};

struct OpenRun {
  OpenLoopSummary summary;
  std::vector<std::uint64_t> response;
  std::vector<std::uint64_t> service;
  std::vector<std::uint64_t> lag;
  std::vector<std::uint64_t> intended;
  std::vector<std::uint64_t> sent;
  std::uint64_t spins = 0;
  std::uint64_t polls = 0;
};

// Runs an open loop of `warmup` + `samples` calls against `server` as
// Measurement::run_open() does (the warm-up, the margin settled, the
// measured calls); the send of each call in `slow_sends` costs that much
// clock time. At the end every reply the server gives is delivered.
inline OpenRun run_open(const Load& l, std::uint64_t warmup, std::uint64_t samples,
                        SimulatedServer server, std::uint64_t seed = 1,
                        std::vector<std::pair<std::uint64_t, std::uint64_t>> slow_sends = {},
                        SimulatedWaits waits = {}) {
  OpenLoopCalls calls(l, seed, warmup, samples);
  SimulatedClock clock{kStart, &server, &calls, std::move(waits)};
  OpenRun run;
  auto send = [&](std::uint64_t call) {
    run.intended.push_back(calls.intended_ns(call));
    run.sent.push_back(clock.now());
    server.request(call, clock.now());
    for (const auto& [slow, cost] : slow_sends) {
      if (slow == call) clock.t += cost;
    }
  };
  const std::atomic<bool> stop{false};
  calls.start_at(clock.now());
  std::uint64_t sent = send_on_schedule(clock, calls, send, stop, 0, warmup);
  calls.spin_margin().settle();
  sent = send_on_schedule(clock, calls, send, stop, sent, calls.total());
  EXPECT_EQ(sent, calls.total());
  server.deliver_until(UINT64_MAX, calls);
  const std::uint64_t wait_end = std::max(clock.t, server.free_at) + 10 * kMs;
  run.response.assign(samples, 0);
  NamedSeries service("service_time", "", samples);
  NamedSeries lag("send_lag", "", samples);
  run.summary = calls.collect(sent, wait_end, run.response, service, lag);
  run.response.resize(run.summary.answered);
  run.service.assign(service.values().begin(), service.values().end());
  run.lag.assign(lag.values().begin(), lag.values().end());
  run.spins = clock.spins;
  run.polls = clock.polls;
  EXPECT_EQ(calls.error(), "");
  return run;
}

}  // namespace mwbench::testing
