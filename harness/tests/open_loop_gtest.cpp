// The open loop's schedule and bookkeeping against a simulated clock and a
// simulated FIFO server, so that times are exact and nothing depends on the
// machine: constant and Poisson intended times, late sends, lost calls, and
// a server stall seen by an open loop and hidden by a closed one
// (coordinated omission).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "mwbench/open_loop.hpp"
#include "simulated_open_loop.hpp"

namespace {

using mwbench::Load;
using mwbench::OpenLoopCalls;
using mwbench::OpenLoopSummary;

using mwbench::testing::kMs;
using mwbench::testing::kStart;
using mwbench::testing::kUs;
using mwbench::testing::OpenRun;
using mwbench::testing::run_open;
using mwbench::testing::SimulatedServer;

Load load(Load::Kind kind, double rate) { return Load{kind, rate}; }

std::uint64_t count_above(const std::vector<std::uint64_t>& values, std::uint64_t bound) {
  return static_cast<std::uint64_t>(
      std::count_if(values.begin(), values.end(), [&](std::uint64_t v) { return v > bound; }));
}

TEST(OpenLoopSchedule, ConstantTimesAreExact) {
  std::vector<std::uint64_t> offsets(1000);
  mwbench::schedule_offsets(load(Load::Kind::constant, 1000), 0, offsets);
  for (std::uint64_t i = 0; i < offsets.size(); ++i) EXPECT_EQ(offsets[i], i * kMs);
  // A gap that is no whole number of ns never drifts: offset i is i/RATE, rounded.
  mwbench::schedule_offsets(load(Load::Kind::constant, 3), 0, offsets);
  EXPECT_EQ(offsets[1], 333'333'333u);
  EXPECT_EQ(offsets[2], 666'666'667u);
  EXPECT_EQ(offsets[999], 333'000'000'000u);
}

TEST(OpenLoopSchedule, PoissonIsOneScheduleForOneSeed) {
  std::vector<std::uint64_t> a(1000), b(1000), c(1000);
  mwbench::schedule_offsets(load(Load::Kind::poisson, 1000), 42, a);
  mwbench::schedule_offsets(load(Load::Kind::poisson, 1000), 42, b);
  mwbench::schedule_offsets(load(Load::Kind::poisson, 1000), 43, c);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a[0], 0u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
}

TEST(OpenLoopSchedule, PoissonGapsAreExponentialOfTheMeanGap) {
  constexpr std::size_t kCalls = 100'000;
  std::vector<std::uint64_t> offsets(kCalls + 1);
  mwbench::schedule_offsets(load(Load::Kind::poisson, 1000), 42, offsets);
  std::vector<double> gaps(kCalls);
  for (std::size_t i = 0; i < kCalls; ++i) gaps[i] = double(offsets[i + 1] - offsets[i]);
  const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / kCalls;
  double square = 0;
  for (const double g : gaps) square += (g - mean) * (g - mean);
  const double deviation = std::sqrt(square / kCalls);
  // The seed fixes the figures; the bounds are those of any fair draw (the
  // mean's standard error is 0.3% here).
  EXPECT_NEAR(mean, 1e6, 0.02 * 1e6);
  EXPECT_NEAR(deviation / mean, 1.0, 0.03);  // an exponential's deviation is its mean
  const auto over_mean =
      std::count_if(gaps.begin(), gaps.end(), [&](double g) { return g > mean; });
  EXPECT_NEAR(double(over_mean) / kCalls, std::exp(-1.0), 0.01);
}

TEST(OpenLoopSend, SendsEachCallAtItsIntendedTime) {
  const OpenRun run = run_open(load(Load::Kind::constant, 1000), 5, 50, {.service_ns = 100 * kUs});
  ASSERT_EQ(run.sent.size(), 55u);
  for (std::size_t i = 0; i < run.sent.size(); ++i) {
    EXPECT_EQ(run.intended[i], kStart + i * kMs);
    EXPECT_EQ(run.sent[i], run.intended[i]);
  }
  const OpenLoopSummary& s = run.summary;
  EXPECT_EQ(s.calls, 50u);  // the warm-up's calls are not measured
  EXPECT_EQ(s.answered, 50u);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.late_sends, 0u);
  EXPECT_EQ(s.late_threshold_ns, kMs);
  EXPECT_EQ(s.max_send_lag_ns, 0u);
  EXPECT_EQ(s.outstanding_at_end, 1u);  // the last call's reply comes after its send
  EXPECT_EQ(s.offered_per_s, 50 * 1e9 / (49 * kMs));
  // From the first measured intended time to the last reply.
  EXPECT_EQ(s.measured_wall_ns, 49 * kMs + 100 * kUs);
  EXPECT_EQ(s.achieved_per_s, 50 * 1e9 / (49 * kMs + 100 * kUs));
  EXPECT_EQ(run.response, std::vector<std::uint64_t>(50, 100 * kUs));
  EXPECT_EQ(run.service, run.response);
  EXPECT_EQ(run.lag, std::vector<std::uint64_t>(50, 0));
}

TEST(OpenLoopSend, ASlowSendMakesTheNextOnesLate) {
  // Call 10's send takes 3.5 gaps: calls 11, 12 and 13 go out 2.5, 1.5 and
  // 0.5 gaps late; the first two later than one gap.
  const OpenRun run = run_open(load(Load::Kind::constant, 1000), 0, 30, {.service_ns = 10 * kUs}, 1,
                               {{10, 3500 * kUs}});
  const OpenLoopSummary& s = run.summary;
  EXPECT_EQ(s.late_sends, 2u);
  EXPECT_EQ(s.max_send_lag_ns, 2500 * kUs);
  EXPECT_EQ(run.lag[11], 2500 * kUs);
  EXPECT_EQ(run.lag[13], 500 * kUs);
  EXPECT_EQ(run.lag[14], 0u);
  // The response time counts from the intended start, the service time from the send.
  EXPECT_EQ(run.response[11], 2500 * kUs + 10 * kUs);
  EXPECT_EQ(run.service[11], 10 * kUs);
  for (std::size_t i = 0; i < run.response.size(); ++i) {
    EXPECT_EQ(run.response[i], run.lag[i] + run.service[i]);
  }
}

TEST(OpenLoopSend, UnansweredCallsAreLostAndLeftOut) {
  const OpenRun run =
      run_open(load(Load::Kind::constant, 1000), 10, 100, {.service_ns = 10 * kUs, .answers = 100});
  const OpenLoopSummary& s = run.summary;
  EXPECT_EQ(s.calls, 100u);
  EXPECT_EQ(s.answered, 90u);
  EXPECT_EQ(s.lost, 10u);
  EXPECT_EQ(s.outstanding_at_end, 10u);  // the lost ones: the others came before the last send
  EXPECT_EQ(run.response.size(), 90u);
  EXPECT_EQ(run.service.size(), 90u);
  // The wall time runs to the wait's end: the lost calls were waited for.
  EXPECT_EQ(s.measured_wall_ns, 99 * kMs + 10 * kUs + 10 * kMs);
  EXPECT_EQ(s.achieved_per_s, 90 * 1e9 / (89 * kMs + 10 * kUs));
}

TEST(OpenLoopSend, ABadReplyIsTheDriversError) {
  OpenLoopCalls calls(load(Load::Kind::constant, 1000), 0, 2, 3);
  calls.complete(1, kStart);
  EXPECT_EQ(calls.error(), "");
  calls.complete(1, kStart + 1);
  EXPECT_EQ(calls.error(), "completed(1) twice: each call is answered once");
  EXPECT_EQ(calls.answered(), 1u);
  OpenLoopCalls other(load(Load::Kind::constant, 1000), 0, 2, 3);
  other.complete(5, kStart);
  EXPECT_EQ(other.error(), "completed(5): no such call (the open loop has 5, numbered from 0)");
}

// At 1000 calls/s with a service time of 100 us a call never queues: every
// response is 100 us. A stall of 20 ms then delays every call due during it
// (about RATE x STALL = 20 of them) and, while the backlog drains, a few more.
constexpr double kRate = 1000;
constexpr std::uint64_t kService = 100 * kUs;
constexpr std::uint64_t kStall = 20 * kMs;
constexpr std::uint64_t kCalls = 1000;
const SimulatedServer kStalling{
    .service_ns = kService, .stall_at = kStart + 500 * kMs, .stall_ns = kStall};

TEST(OpenLoopStall, AStallDelaysEveryCallDueDuringIt) {
  const OpenRun calm =
      run_open(load(Load::Kind::constant, kRate), 0, kCalls, {.service_ns = kService});
  const std::uint64_t bound = *std::max_element(calm.response.begin(), calm.response.end());
  EXPECT_EQ(bound, kService);
  const OpenRun stalled = run_open(load(Load::Kind::constant, kRate), 0, kCalls, kStalling);
  const double expected = kRate * double(kStall) / 1e9;  // 20
  const double utilisation = kRate * double(kService) / 1e9;
  const auto above = double(count_above(stalled.response, bound));
  EXPECT_GE(above, expected);
  EXPECT_LE(above, expected / (1 - utilisation) + 2);
  EXPECT_GE(*std::max_element(stalled.response.begin(), stalled.response.end()), kStall);
  EXPECT_EQ(stalled.summary.lost, 0u);
}

TEST(OpenLoopStall, PoissonArrivalsShowTheStallToo) {
  const Load poisson = load(Load::Kind::poisson, kRate);
  const OpenRun calm = run_open(poisson, 0, kCalls, {.service_ns = kService}, 7);
  const std::uint64_t bound = *std::max_element(calm.response.begin(), calm.response.end());
  const OpenRun stalled = run_open(poisson, 0, kCalls, kStalling, 7);
  EXPECT_EQ(stalled.intended, calm.intended);  // one seed, one schedule
  const double expected = kRate * double(kStall) / 1e9;
  const auto above = double(count_above(stalled.response, bound));
  EXPECT_GE(above, 0.5 * expected);
  EXPECT_LE(above, 2 * expected);
}

// The same server measured by a closed loop: each call starts when the
// previous one returns, so the stall delays the one call in flight and the
// loop simply sends fewer calls meanwhile.
TEST(OpenLoopStall, AClosedLoopHidesTheStallInOneSample) {
  SimulatedServer server = kStalling;
  std::vector<std::uint64_t> closed;
  std::uint64_t t = kStart;
  // As long as the open loop runs: the stall falls in the middle.
  while (t < kStart + kCalls * kMs) {
    const std::uint64_t done = server.serve(t);
    closed.push_back(done - t);
    t = done;
  }
  EXPECT_EQ(count_above(closed, kService), 1u);
  const OpenRun open = run_open(load(Load::Kind::constant, kRate), 0, kCalls, kStalling);
  EXPECT_GE(count_above(open.response, kService), 20u);
}

}  // namespace
