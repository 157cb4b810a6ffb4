// ReplyTally: when an event is complete, and what it refuses.
#include <gtest/gtest.h>

#include "alloc_counter.hpp"
#include "mwbench/fanout.hpp"

namespace {

using mwbench::ReplyTally;
using Reply = ReplyTally::Reply;

TEST(ReplyTally, TheLastReplyCompletesTheEvent) {
  ReplyTally tally(3);
  tally.expect(1);
  EXPECT_EQ(tally.count(2, 1), Reply::counted);
  EXPECT_EQ(tally.count(0, 1), Reply::counted);
  EXPECT_EQ(tally.missing(), 1);
  EXPECT_EQ(tally.count(1, 1), Reply::last);
  tally.expect(2);
  EXPECT_EQ(tally.missing(), 3);
  EXPECT_EQ(tally.published(), 2u);
}

TEST(ReplyTally, RefusesWhatACorrectMiddlewareNeverDelivers) {
  ReplyTally tally(2);
  tally.expect(7);
  EXPECT_EQ(tally.count(2, 7), Reply::unexpected);
  EXPECT_NE(tally.describe(2, 7).find("subscribers 0-1"), std::string::npos);
  EXPECT_EQ(tally.count(0, 6), Reply::unexpected);
  EXPECT_NE(tally.describe(0, 6).find("replied to event 6 while event 7"), std::string::npos);
  EXPECT_EQ(tally.count(0, 7), Reply::counted);
  EXPECT_EQ(tally.count(0, 7), Reply::unexpected);
  EXPECT_NE(tally.describe(0, 7).find("replied twice"), std::string::npos);
  EXPECT_EQ(tally.describe_missing(), "1 of 2 subscribers have not replied to event 7 (1)");
}

TEST(ReplyTally, ASubscriberThatRepliedLastTimeOwesTheNextEvent) {
  ReplyTally tally(1);
  for (std::uint64_t e = 0; e < 5; ++e) {
    tally.expect(e);
    ASSERT_EQ(tally.count(0, e), Reply::last);
  }
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(ReplyTally, CountingAllocatesNothing) {
  ReplyTally tally(16);
  const int allocations = mwbench::testing::count_allocations([&] {
    for (std::uint64_t e = 0; e < 100; ++e) {
      tally.expect(e);
      for (int s = 0; s < 16; ++s) tally.count(s, e);
    }
  });
  EXPECT_EQ(allocations, 0);
}
#endif

}  // namespace
