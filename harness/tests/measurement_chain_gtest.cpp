// Measurement::run_chained(): calls started by whichever thread handles the
// reply to the previous one. A "middleware" here is a thread that answers
// each request by calling replied(), or a send() that replies within itself.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>

#include "alloc_counter.hpp"
#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"
#include "request_thread.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::testing::spin;

DriverOptions options(std::uint64_t samples, std::uint64_t warmup,
                      std::optional<std::uint64_t> batch, double timeout_s = 10) {
  DriverOptions o = mwbench::testing::collocated_options(1, samples, warmup, batch);
  o.timeout_s = timeout_s;
  return o;
}

// A thread that answers every request after `cost_ns`, by calling replied():
// the middleware's receive thread. Requests are counted; it answers none
// after `answers` of them.
class Responder : public mwbench::testing::RequestThread {
 public:
  Responder(Measurement& m, std::uint64_t cost_ns, std::uint64_t answers = UINT64_MAX)
      : RequestThread([&m, cost_ns, answers, answered = std::uint64_t{0}](std::uint64_t) mutable {
          if (answered == answers) return;
          ++answered;
          spin(cost_ns);
          m.replied();
        }) {}
};

TEST(MeasurementChain, RepliesOnAnotherThreadStartTheNextCall) {
  const auto o = options(300, 20, 1);
  Measurement m(o, 20);
  Responder responder(m, 2000);
  std::atomic<std::thread::id> last_sender{};
  m.run_chained([&] {
    last_sender = std::this_thread::get_id();
    responder.request();
  });
  EXPECT_EQ(responder.requests(), 20u + 300u);
  EXPECT_EQ(m.samples().size(), 300u);
  EXPECT_EQ(m.warmup_done(), 20u);
  for (const std::uint64_t s : m.samples()) EXPECT_GE(s, 2000u);
  // After the first call, the responder's thread sends the next: no hand-off back.
  EXPECT_NE(last_sender.load(), std::this_thread::get_id());
}

// A middleware that delivers within the call (collocated): each send works
// for `cost_ns`, then calls replied() itself. Returns the sends.
std::uint64_t chain_replying_within_send(Measurement& m, std::uint64_t cost_ns) {
  std::uint64_t sends = 0;
  m.run_chained([&] {
    ++sends;
    if (cost_ns > 0) spin(cost_ns);
    m.replied();
  });
  return sends;
}

TEST(MeasurementChain, RepliesWithinSendAreChainedWithoutRecursion) {
  const auto o = options(100000, 10, 1);
  Measurement m(o, 20);
  const std::uint64_t sends = chain_replying_within_send(m, 0);
  EXPECT_EQ(sends, 10u + 100000u);  // a hundred thousand deep would overflow the stack
  EXPECT_EQ(m.samples().size(), 100000u);
}

TEST(MeasurementChain, FixedBatchTimesSeveralCallsPerSample) {
  const auto o = options(50, 0, 4);
  Measurement m(o, 20);
  EXPECT_EQ(chain_replying_within_send(m, 1000), 50u * 4u);
  EXPECT_EQ(m.batch_size(), 4u);
  for (const std::uint64_t s : m.samples()) EXPECT_GE(s, 4000u);
}

TEST(MeasurementChain, AutoBatchComesFromSingleCallsAfterTheWarmup) {
  // Read cost 100 ns: a batch must last 10 µs; calls of 3 µs need 4. The
  // margins are microseconds, so that neither a sanitizer's overhead nor a
  // busy machine changes the answer (a call would have to take over 5 µs).
  const auto o = options(10, 3, std::nullopt);
  Measurement m(o, 100);
  const std::uint64_t sends = chain_replying_within_send(m, 3000);
  EXPECT_EQ(m.batch_size(), 4u);
  EXPECT_EQ(sends, 3u + 5u + 10u * 4u);  // warm-up, five probes, the samples
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(MeasurementChain, TheChainAllocatesNothing) {
  const auto o = options(100000, 100, std::nullopt);
  Measurement m(o, 20);  // the buffer is allocated here, not in run_chained()
  const int allocations =
      mwbench::testing::count_allocations([&] { m.run_chained([&] { m.replied(); }); });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(m.samples().size(), 100000u);
}
#endif

TEST(MeasurementChain, AStopKeepsWhatWasMeasured) {
  const auto o = options(1000000, 0, 1);
  Measurement m(o, 20);
  std::uint64_t sends = 0;
  m.run_chained([&] {
    if (++sends == 500) m.request_stop();
    m.replied();
  });
  EXPECT_EQ(m.samples().size(), 500u);
}

TEST(MeasurementChain, ACallWithoutAReplyEndsTheRunAfterTheTimeout) {
  const auto o = options(100, 5, 1, /*timeout_s=*/0.2);
  Measurement m(o, 20);
  Responder responder(m, 0, /*answers=*/30);
  try {
    m.run_chained([&] { responder.request(); });
    FAIL() << "expected the run to fail";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no reply to call 31 within 0.200000 s (--timeout)");
  }
}

TEST(MeasurementChain, ASendThatThrowsEndsTheRunWithItsMessage) {
  const auto o = options(100, 0, 1);
  Measurement m(o, 20);
  std::uint64_t sends = 0;
  EXPECT_THROW(
      {
        try {
          m.run_chained([&] {
            if (++sends == 7) throw std::runtime_error("the writer is gone");
            m.replied();
          });
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "the writer is gone");
          throw;
        }
      },
      std::runtime_error);
}

TEST(MeasurementChain, AFailureReportedByTheReplyEndsTheRun) {
  const auto o = options(100, 0, 1);
  Measurement m(o, 20);
  std::uint64_t sends = 0;
  EXPECT_THROW(m.run_chained([&] {
    if (++sends == 3) m.fail("reply 3 carries another stamp");
    m.replied();
  }),
               std::runtime_error);
  EXPECT_LE(m.samples().size(), 3u);
}

TEST(MeasurementChain, OnlyOneThread) {
  DriverOptions o = options(10, 0, 1);
  o.threads = 2;
  Measurement m(o, 20);
  EXPECT_THROW(m.run_chained([] {}), std::logic_error);
}

}  // namespace
