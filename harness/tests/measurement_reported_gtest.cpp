// Samples the application timed (Measurement::run_reported): the warm-up's
// dropped, at most --samples kept, a short collection kept as it is, and
// the misuses refused.
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"

namespace {

using mwbench::Measurement;
using mwbench::testing::collocated_options;

std::vector<std::uint64_t> counting(std::uint64_t n) {
  std::vector<std::uint64_t> values(n);
  std::iota(values.begin(), values.end(), 1);
  return values;
}

TEST(MeasurementReported, DropsTheWarmUpAndKeepsTheSamples) {
  const auto o = collocated_options(1, 5, 3, std::nullopt);
  Measurement m(o, 20);
  std::uint64_t asked = 0;
  m.run_reported([&](std::uint64_t n) {
    asked = n;
    return counting(n + 4);  // more than asked: the surplus is not kept
  });
  EXPECT_EQ(asked, 8u);
  EXPECT_TRUE(m.reported());
  EXPECT_EQ(m.warmup_done(), 3u);
  EXPECT_EQ(m.batch_size(), 1u);
  EXPECT_EQ(std::vector<std::uint64_t>(m.samples().begin(), m.samples().end()),
            (std::vector<std::uint64_t>{4, 5, 6, 7, 8}));
}

TEST(MeasurementReported, KeepsWhatAStoppedCollectionGot) {
  const auto o = collocated_options(1, 5, 2, 1);
  Measurement m(o, 20);
  m.run_reported([](std::uint64_t) { return counting(4); });
  EXPECT_EQ(m.samples().size(), 2u);
  EXPECT_EQ(m.samples()[0], 3u);
}

TEST(MeasurementReported, RefusesBatchesThreadsAndNamedSeries) {
  const auto batched = collocated_options(1, 5, 0, 4);
  Measurement m1(batched, 20);
  EXPECT_THROW(m1.run_reported(counting), mwbench::UsageError);
  const auto threads = collocated_options(2, 5, 0, 1);
  Measurement m2(threads, 20);
  EXPECT_THROW(m2.run_reported(counting), std::logic_error);
  const auto plain = collocated_options(1, 5, 0, 1);
  Measurement m3(plain, 20);
  m3.named_series("total");
  EXPECT_THROW(m3.run_reported(counting), std::logic_error);
}

}  // namespace
