// Named series: one value per sample, the warm-up's dropped, and the misuses
// a driver could make refused with a message.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"

namespace {

using mwbench::Measurement;
using mwbench::NamedSeries;
using mwbench::UsageError;
using mwbench::testing::collocated_options;

TEST(NamedSeries, KeepsOneValuePerSampleAndDropsTheWarmUp) {
  const auto o = collocated_options(1, 5, 3, std::nullopt);
  Measurement m(o, 20);
  NamedSeries& total = m.named_series("total");
  NamedSeries& part = m.named_series("part", "total");
  std::uint64_t call = 0;
  m.run([&] {
    ++call;
    total.record(call * 10);
    part.record(call);
  });
  EXPECT_EQ(m.batch_size(), 1u);  // auto batch is one call with named series
  ASSERT_EQ(m.samples().size(), 5u);
  EXPECT_EQ(std::vector<std::uint64_t>(total.values().begin(), total.values().end()),
            (std::vector<std::uint64_t>{40, 50, 60, 70, 80}));  // calls 4 to 8
  EXPECT_EQ(part.values().size(), 5u);
  EXPECT_EQ(part.values()[0], 4u);
  EXPECT_EQ(part.part_of(), "total");
}

TEST(NamedSeries, ACallThatRecordsTwiceFailsTheRun) {
  const auto o = collocated_options(1, 4, 0, 1);
  Measurement m(o, 20);
  NamedSeries& total = m.named_series("total");
  try {
    m.run([&] {
      total.record(1);
      total.record(2);
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("named series 'total'"), std::string::npos) << e.what();
  }
}

TEST(NamedSeries, ACallThatForgetsToRecordFailsTheRun) {
  const auto o = collocated_options(1, 4, 0, 1);
  Measurement m(o, 20);
  NamedSeries& total = m.named_series("total");
  bool odd = false;
  EXPECT_THROW(m.run([&] {
    if ((odd = !odd)) total.record(1);
  }),
               std::runtime_error);
}

TEST(NamedSeries, DeclarationsAreChecked) {
  const auto o = collocated_options(1, 4, 0, std::nullopt);
  Measurement m(o, 20);
  m.named_series("total");
  EXPECT_THROW(m.named_series("total"), UsageError);               // twice
  EXPECT_THROW(m.named_series("Phase"), UsageError);               // not [a-z][a-z0-9_]*
  EXPECT_THROW(m.named_series(std::string(65, 'a')), UsageError);  // too long
  EXPECT_THROW(m.named_series("part", "later"), UsageError);       // its whole not declared yet
  EXPECT_NO_THROW(m.named_series("part_2", "total"));
}

TEST(NamedSeries, NeedOneCallPerSample) {
  const auto o = collocated_options(1, 4, 0, 8);
  Measurement m(o, 20);
  EXPECT_THROW(m.named_series("total"), UsageError);
}

TEST(NamedSeries, AreMeasuredByRunOnly) {
  const auto o = collocated_options(2, 4, 0, 1);
  Measurement m(o, 20);
  m.named_series("total");
  EXPECT_THROW(m.run_threads([](int) { return [] {}; }), std::logic_error);
}

}  // namespace
