// The open loop's spin margin (spin_margin.hpp) and its sender's waits,
// against the simulated clock: sleeps that wake up late by set amounts, a
// spin that costs a set time per turn, and a clock that receives replies as
// a driver's wait_until() does. Every figure is exact; no real time counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "mwbench/spin_margin.hpp"
#include "simulated_open_loop.hpp"

namespace {

using mwbench::Load;
using mwbench::OpenLoopCalls;
using mwbench::SpinMargin;
using mwbench::testing::kMs;
using mwbench::testing::kStart;
using mwbench::testing::kUs;
using mwbench::testing::OpenRun;
using mwbench::testing::run_open;
using mwbench::testing::SimulatedClock;
using mwbench::testing::SimulatedServer;
using mwbench::testing::SimulatedWaits;

const Load kConstant1000{Load::Kind::constant, 1000};  // a gap of 1 ms

TEST(SpinMargin, IsTheNinetiethPercentileOfTheWarmUpSleepsLateness) {
  SpinMargin margin(1e6);
  EXPECT_TRUE(margin.calibrating());
  for (std::uint64_t late = 100; late >= 1; --late) margin.record_lateness(late * kUs);
  margin.settle();
  EXPECT_FALSE(margin.calibrating());
  EXPECT_EQ(margin.sleeps(), 100u);
  EXPECT_EQ(margin.lateness_percentile_ns(), 90 * kUs);
  EXPECT_EQ(margin.margin_ns(), 90 * kUs);
  margin.record_lateness(kMs);  // after the calibration: ignored
  EXPECT_EQ(margin.sleeps(), 100u);
}

TEST(SpinMargin, IsAtMostAQuarterOfTheMeanGap) {
  SpinMargin margin(500 * kUs);  // 2000 calls/s
  for (int i = 0; i < 10; ++i) margin.record_lateness(400 * kUs);
  margin.settle();
  EXPECT_EQ(margin.lateness_percentile_ns(), 400 * kUs);
  EXPECT_EQ(margin.max_margin_ns(), 125 * kUs);
  EXPECT_EQ(margin.margin_ns(), 125 * kUs);
}

TEST(SpinMargin, WithoutSleepsToLearnFromIsZero) {
  SpinMargin margin(1e6);
  margin.settle();
  EXPECT_EQ(margin.sleeps(), 0u);
  EXPECT_EQ(margin.margin_ns(), 0u);
}

TEST(SpinMargin, CountsTheLatestSleepsOnly) {
  SpinMargin margin(1e9);
  for (std::size_t i = 0; i < SpinMargin::kCalibrationSleeps; ++i) margin.record_lateness(kMs);
  for (std::size_t i = 0; i < SpinMargin::kCalibrationSleeps; ++i) margin.record_lateness(kUs);
  margin.settle();
  EXPECT_EQ(margin.sleeps(), 2 * SpinMargin::kCalibrationSleeps);
  EXPECT_EQ(margin.margin_ns(), kUs);
}

TEST(SpinMarginSend, SleepsThatWakeLateSendOnTimeOnceCalibrated) {
  // Every sleep wakes 30 us late: the warm-up's calls go out 30 us late, the
  // measured ones, slept to 30 us before their time, on time without a spin.
  const OpenRun run =
      run_open(kConstant1000, 20, 100, {.service_ns = 10 * kUs}, 1, {}, {.lateness = {30 * kUs}});
  for (std::size_t i = 1; i < 20; ++i) EXPECT_EQ(run.sent[i] - run.intended[i], 30 * kUs);
  EXPECT_EQ(run.lag, std::vector<std::uint64_t>(100, 0));
  EXPECT_EQ(run.summary.late_sends, 0u);
  EXPECT_EQ(run.summary.spin_margin_ns, 30 * kUs);
  EXPECT_EQ(run.summary.calibration_sleeps, 19u);  // call 0 is due at the start: no sleep
  EXPECT_EQ(run.summary.calibration_lateness_p90_ns, 30 * kUs);
  EXPECT_EQ(run.spins, 0u);
  EXPECT_EQ(run.summary.to_json()["spin_margin_ns"], 30 * kUs);
}

TEST(SpinMarginSend, AnEarlyWakeSpinsToTheIntendedTime) {
  // Sleeps wake 10, 20, ... 100 us late in turn: the margin is 90 us; a
  // measured call whose sleep wakes L us late spins 90 - L turns of 1 us and
  // goes out on time, except after the 100 us ones, 10 us late.
  std::vector<std::uint64_t> lateness;
  for (std::uint64_t late = 10; late <= 100; late += 10) lateness.push_back(late * kUs);
  const OpenRun run =
      run_open(kConstant1000, 21, 100, {.service_ns = 10 * kUs}, 1, {}, {.lateness = lateness});
  EXPECT_EQ(run.summary.spin_margin_ns, 90 * kUs);
  // The 21 warm-up calls slept 20 times; the measured ones start at sleep 20.
  std::uint64_t spun = 0;
  for (std::size_t i = 0; i < 100; ++i) {
    const std::uint64_t late = lateness[(20 + i) % lateness.size()];
    EXPECT_EQ(run.lag[i], late > 90 * kUs ? late - 90 * kUs : 0) << "call " << i;
    if (late < 90 * kUs) spun += (90 * kUs - late) / kUs;
  }
  EXPECT_EQ(run.spins, spun);
}

TEST(SpinMarginSend, ABoundedMarginLeavesSomeLateness) {
  // 2000 calls/s, sleeps 400 us late: the margin stops at 125 us (a quarter
  // of the gap), so the measured calls go out 275 us late, none a gap late.
  // The first follows the last warm-up call, sent 400 us late, by 100 us:
  // within the margin, it spins them and goes on time.
  const Load rate2000{Load::Kind::constant, 2000};
  const OpenRun run =
      run_open(rate2000, 10, 50, {.service_ns = 10 * kUs}, 1, {}, {.lateness = {400 * kUs}});
  EXPECT_EQ(run.summary.calibration_lateness_p90_ns, 400 * kUs);
  EXPECT_EQ(run.summary.spin_margin_ns, 125 * kUs);
  std::vector<std::uint64_t> expected(50, 275 * kUs);
  expected[0] = 0;
  EXPECT_EQ(run.lag, expected);
  EXPECT_EQ(run.summary.late_sends, 0u);
  EXPECT_EQ(run.spins, 100u);
}

TEST(SpinMarginSend, WithoutAWarmUpTheSenderOnlySleeps) {
  const OpenRun run =
      run_open(kConstant1000, 0, 50, {.service_ns = 10 * kUs}, 1, {}, {.lateness = {30 * kUs}});
  EXPECT_EQ(run.summary.spin_margin_ns, 0u);
  EXPECT_EQ(run.summary.calibration_sleeps, 0u);
  EXPECT_EQ(run.spins, 0u);
  EXPECT_EQ(run.lag[0], 0u);  // due at the start
  EXPECT_EQ(run.lag[1], 30 * kUs);
}

TEST(SpinMarginSend, ASleepEndedByAReplyIsNoCalibrationSample) {
  // Each sleep ends at the previous call's reply (10 us after its send),
  // then sleeps again to the intended time and wakes 30 us late: one
  // lateness sample per call, not two.
  const OpenRun run = run_open(kConstant1000, 20, 50, {.service_ns = 10 * kUs}, 1, {},
                               {.lateness = {30 * kUs}, .wake_on_reply = true});
  EXPECT_EQ(run.summary.calibration_sleeps, 19u);
  EXPECT_EQ(run.summary.spin_margin_ns, 30 * kUs);
  EXPECT_EQ(run.lag, std::vector<std::uint64_t>(50, 0));
}

TEST(SpinMarginSend, ALateCallTakesTheRepliesThereBeforeItGoes) {
  // Call 5's send costs 3.5 ms: calls 6 to 8 are late and go at once, each
  // after a poll for the replies already there (call 5's, 10 us after it).
  const OpenRun run =
      run_open(kConstant1000, 0, 20, {.service_ns = 10 * kUs}, 1, {{5, 3500 * kUs}});
  EXPECT_EQ(run.polls, 1u + 3u);  // call 0, due at the start, and calls 6, 7, 8
  EXPECT_EQ(run.lag[6], 2500 * kUs);
}

TEST(SpinMarginReceive, TheWaitForTheLastRepliesIsTheClocks) {
  // A receiving clock waits for the replies itself, each reply starting its
  // patience again; calls 8 and 9, never answered, are lost once a whole
  // patience passes without a reply.
  OpenLoopCalls calls(kConstant1000, 1, 0, 10);
  SimulatedServer server{.service_ns = 5 * kMs, .answers = 8};
  SimulatedClock clock{kStart, &server, &calls, {.wake_on_reply = true}};
  const std::atomic<bool> stop{false};
  calls.start_at(clock.now());
  auto send = [&](std::uint64_t call) { server.request(call, clock.now()); };
  ASSERT_EQ(mwbench::send_on_schedule(clock, calls, send, stop, 0, 10), 10u);
  EXPECT_FALSE(mwbench::receive_replies(clock, calls, 10, 100 * kMs, stop));
  EXPECT_EQ(calls.answered(), 8u);
  // The requests queue (5 ms of service each, 1 ms apart): call k is
  // answered 5 (k + 1) ms after the start, the last, call 7, at 40 ms.
  EXPECT_EQ(clock.now(), kStart + 40 * kMs + 100 * kMs);
}

}  // namespace
