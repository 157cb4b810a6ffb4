#include <gtest/gtest.h>

#include "mwbench/clock.hpp"

TEST(Clock, ReadCostIsPositiveAndSmall) {
  // vDSO clock_gettime costs tens of nanoseconds; a microsecond would mean a
  // system call per read (a VM with an unstable clocksource, say).
  const double cost = mwbench::measure_read_cost_ns();
  EXPECT_GT(cost, 0.0);
  EXPECT_LT(cost, 1000.0);
}

TEST(Clock, ResolutionIsAtMostAMicrosecond) {
  const auto res = mwbench::clock_resolution_ns();
  EXPECT_GE(res, 1u);
  EXPECT_LE(res, 1000u);
}

TEST(Clock, NeverGoesBack) {
  std::uint64_t last = mwbench::now_ns();
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t t = mwbench::now_ns();
    ASSERT_GE(t, last);
    last = t;
  }
}

TEST(Clock, HeaderObjectHasTheContractKeys) {
  const auto j = mwbench::ClockInfo{19.5, 1}.to_json();
  EXPECT_EQ(j.dump(), R"({"read_cost_ns":19.5,"resolution_ns":1,"source":"CLOCK_MONOTONIC"})");
}
