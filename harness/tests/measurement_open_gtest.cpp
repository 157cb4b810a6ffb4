// Measurement::run_open() on the real clock: calls sent on a schedule, their
// replies handed back by completed() from a "server" thread of this process.
// Nothing here judges a time: only counts, and how the figures relate.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"
#include "request_thread.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Load;
using mwbench::Measurement;

DriverOptions open_options(Load::Kind kind, double rate, std::uint64_t samples,
                           std::uint64_t warmup, double timeout_s = 10) {
  DriverOptions o = mwbench::testing::collocated_options(1, samples, warmup, 1);
  o.load = Load{kind, rate};
  o.timeout_s = timeout_s;
  return o;
}

// A server thread that answers requests in order by calling completed().
class Server : public mwbench::testing::RequestThread {
 public:
  explicit Server(Measurement& m)
      : RequestThread([&m](std::uint64_t call) { m.completed(call); }) {}
};

// The figures of a run agree with each other, whatever the machine's speed.
void expect_consistent(const Measurement& m, std::uint64_t calls) {
  const mwbench::OpenLoopSummary* s = m.open_loop_summary();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->calls, calls);
  EXPECT_EQ(s->answered + s->lost, s->calls);
  EXPECT_EQ(m.samples().size(), s->answered);
  ASSERT_EQ(m.named().size(), 2u);
  EXPECT_EQ(m.named()[0].name(), "service_time");
  EXPECT_EQ(m.named()[1].name(), "send_lag");
  const auto service = m.named()[0].values();
  const auto lag = m.named()[1].values();
  ASSERT_EQ(service.size(), m.samples().size());
  ASSERT_EQ(lag.size(), m.samples().size());
  for (std::size_t i = 0; i < service.size(); ++i) {
    EXPECT_EQ(m.samples()[i], service[i] + lag[i]) << "call " << i;
  }
  EXPECT_LE(s->late_sends, s->calls);
  EXPECT_LE(s->outstanding_at_end, s->calls);
  EXPECT_GE(s->outstanding_at_end, s->lost);
  EXPECT_EQ(m.batch_size(), 1u);
}

TEST(MeasurementOpen, RepliesFromAnotherThreadAreTimedFromTheirIntendedStart) {
  const auto o = open_options(Load::Kind::constant, 2000, 200, 20);
  Measurement m(o, 20);
  ASSERT_TRUE(m.open_loop());
  {
    Server server(m);
    m.run_open([&](std::uint64_t call) { server.request(call); });
    EXPECT_EQ(server.requests(), 220u);
  }
  expect_consistent(m, 200);
  EXPECT_EQ(m.open_loop_summary()->lost, 0u);
  EXPECT_EQ(m.warmup_done(), 20u);
  EXPECT_EQ(m.series()[0].count, 200u);
  EXPECT_EQ(m.measured_wall_ns(), m.open_loop_summary()->measured_wall_ns);
  // The schedule's rate: 200 calls over 199 gaps of 0.5 ms.
  EXPECT_DOUBLE_EQ(m.open_loop_summary()->offered_per_s, 200 / (199 * 0.5e-3));
}

TEST(MeasurementOpen, TheSpinMarginIsBoundedByAQuarterOfTheGap) {
  const auto o = open_options(Load::Kind::constant, 2000, 50, 50);
  Measurement m(o, 20);
  m.run_open([&](std::uint64_t call) { m.completed(call); });
  const mwbench::OpenLoopSummary& s = *m.open_loop_summary();
  EXPECT_EQ(s.spin_margin_ns, std::min<std::uint64_t>(s.calibration_lateness_p90_ns, 125'000));
  EXPECT_LE(s.calibration_sleeps, 50u);  // one per warm-up call at most: none ends early here
}

// A driver that receives its replies on the sending thread: wait_until()
// answers the calls sent so far, then sleeps to its deadline.
class SameThreadReplies {
 public:
  SameThreadReplies(Measurement& m, std::uint64_t calls) : m_(m) { pending_.reserve(calls); }
  void send(std::uint64_t call) { pending_.push_back(call); }
  void wait_until(std::uint64_t deadline_ns) {
    ++waits_;
    if (std::this_thread::get_id() != sender_) other_thread_ = true;
    for (const std::uint64_t call : pending_) {
      if (call < answers_) m_.completed(call);
    }
    pending_.clear();
    if (deadline_ns > mwbench::now_ns()) mwbench::MonotonicClock{}.sleep_until(deadline_ns);
  }
  std::uint64_t answers_ = UINT64_MAX;  // calls from this one on are never answered
  std::uint64_t waits_ = 0;
  bool other_thread_ = false;

 private:
  Measurement& m_;
  std::vector<std::uint64_t> pending_;
  std::thread::id sender_ = std::this_thread::get_id();
};

TEST(MeasurementOpen, ADriverReceivingOnTheSendingThreadIsWaitedThrough) {
  const auto o = open_options(Load::Kind::constant, 2000, 200, 20);
  Measurement m(o, 20);
  SameThreadReplies driver(m, 220);
  m.run_open([&](std::uint64_t call) { driver.send(call); },
             [&](std::uint64_t deadline_ns) { driver.wait_until(deadline_ns); });
  expect_consistent(m, 200);
  // The last call is answered only in a wait after its send: the harness's own.
  EXPECT_EQ(m.open_loop_summary()->lost, 0u);
  EXPECT_GT(driver.waits_, 0u);
  EXPECT_FALSE(driver.other_thread_);
}

TEST(MeasurementOpen, ADriverReceivingOnTheSendingThreadLosesCallsAfterTheTimeout) {
  const auto o = open_options(Load::Kind::constant, 5000, 50, 5, /*timeout_s=*/0.05);
  Measurement m(o, 20);
  SameThreadReplies driver(m, 55);
  driver.answers_ = 45;
  m.run_open([&](std::uint64_t call) { driver.send(call); },
             [&](std::uint64_t deadline_ns) { driver.wait_until(deadline_ns); });
  expect_consistent(m, 50);
  EXPECT_EQ(m.open_loop_summary()->lost, 10u);
}

TEST(MeasurementOpen, PoissonRecordsItsSeed) {
  auto o = open_options(Load::Kind::poisson, 5000, 100, 0);
  o.load_seed = 42;
  Measurement m(o, 20);
  m.run_open([&](std::uint64_t call) { m.completed(call); });
  expect_consistent(m, 100);
  EXPECT_EQ(m.open_loop_summary()->seed, 42u);
  EXPECT_EQ(m.open_loop_summary()->to_json()["seed"], 42);
  EXPECT_EQ(m.open_loop_summary()->to_json()["kind"], "poisson");
}

TEST(MeasurementOpen, AnUnseededScheduleDrawsASeedThatFitsASignedInteger) {
  const auto o = open_options(Load::Kind::poisson, 5000, 10, 0);
  Measurement m(o, 20);
  m.run_open([&](std::uint64_t call) { m.completed(call); });
  EXPECT_LT(m.open_loop_summary()->seed, std::uint64_t{1} << 63);
  const auto constant = open_options(Load::Kind::constant, 5000, 10, 0);
  Measurement c(constant, 20);
  c.run_open([&](std::uint64_t call) { c.completed(call); });
  EXPECT_FALSE(c.open_loop_summary()->to_json().contains("seed"));
}

TEST(MeasurementOpen, CallsWithoutAReplyAreLostAfterTheTimeout) {
  // Calls 0-44 are answered within their send, so that when the wait begins
  // only the last ten are outstanding, however slow the machine.
  const auto o = open_options(Load::Kind::constant, 5000, 50, 5, /*timeout_s=*/0.05);
  Measurement m(o, 20);
  m.run_open([&](std::uint64_t call) {
    if (call < 45) m.completed(call);
  });
  expect_consistent(m, 50);
  EXPECT_EQ(m.open_loop_summary()->lost, 10u);
  EXPECT_EQ(m.samples().size(), 40u);
}

TEST(MeasurementOpen, AStopEndsTheWaitForReplies) {
  // No reply ever comes and the timeout is an hour: only the stop ends the wait.
  const auto o = open_options(Load::Kind::constant, 5000, 20, 0, /*timeout_s=*/3600);
  Measurement m(o, 20);
  std::thread stopper;
  m.run_open([&](std::uint64_t call) {
    if (call == 19) stopper = std::thread([&] { m.request_stop(); });
  });
  stopper.join();
  EXPECT_EQ(m.open_loop_summary()->lost, 20u);
  EXPECT_TRUE(m.samples().empty());
}

TEST(MeasurementOpen, AStopWhileSendingKeepsWhatWasMeasured) {
  const auto o = open_options(Load::Kind::constant, 5000, 1000, 0);
  Measurement m(o, 20);
  m.run_open([&](std::uint64_t call) {
    m.completed(call);
    if (call == 99) m.request_stop();
  });
  expect_consistent(m, 100);
  EXPECT_EQ(m.samples().size(), 100u);
}

TEST(MeasurementOpen, ARepeatedReplyFailsTheRun) {
  const auto o = open_options(Load::Kind::constant, 5000, 10, 0);
  Measurement m(o, 20);
  try {
    m.run_open([&](std::uint64_t call) {
      m.completed(call);
      if (call == 3) m.completed(call);
    });
    FAIL() << "expected the run to fail";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "completed(3) twice: each call is answered once");
  }
}

TEST(MeasurementOpen, AnOpenLoadIsNotMeasuredByAClosedLoop) {
  const auto o = open_options(Load::Kind::constant, 5000, 10, 0);
  Measurement m(o, 20);
  EXPECT_THROW(m.run([] {}), std::logic_error);
  DriverOptions closed = mwbench::testing::collocated_options(1, 10, 0, 1);
  Measurement c(closed, 20);
  EXPECT_FALSE(c.open_loop());
  EXPECT_THROW(c.run_open([](std::uint64_t) {}), std::logic_error);
  c.completed(0);  // ignored: nothing is open
}

TEST(MeasurementOpen, ItsNamedSeriesAreItsOwn) {
  const auto o = open_options(Load::Kind::constant, 5000, 10, 0);
  Measurement m(o, 20);
  m.named_series("delivery");
  EXPECT_THROW(m.run_open([](std::uint64_t) {}), std::logic_error);
}

}  // namespace
