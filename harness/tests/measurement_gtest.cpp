// The measured loop: warm-up, batch selection, the sample buffer, early stop.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cstdio>
#include <string>

#include "alloc_counter.hpp"
#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::testing::spin;

DriverOptions options(std::uint64_t samples, std::uint64_t warmup,
                      std::optional<std::uint64_t> batch) {
  return mwbench::testing::collocated_options(1, samples, warmup, batch);
}

TEST(Measurement, FixedBatchTakesEverySample) {
  const auto o = options(1000, 10, 4);
  Measurement m(o, 20);
  std::uint64_t calls = 0;
  m.run([&] { ++calls; });
  EXPECT_EQ(calls, 10u + 1000u * 4u);
  EXPECT_EQ(m.samples().size(), 1000u);
  EXPECT_EQ(m.batch_size(), 4u);
  EXPECT_EQ(m.warmup_done(), 10u);
}

TEST(Measurement, SamplesCoverTheLoopsWallTime) {
  const auto o = options(200, 0, 1);
  Measurement m(o, 20);
  m.run([] { spin(2000); });
  std::uint64_t sum = 0;
  for (const auto s : m.samples()) {
    EXPECT_GE(s, 2000u);
    sum += s;
  }
  EXPECT_GE(m.probe().wall_ns(), sum);
  EXPECT_GE(m.probe().cpu_first(), 0);
  EXPECT_GE(m.probe().usage().max_rss_kb, 1);
}

TEST(Measurement, AutoBatchIsTheSmallestPowerOfTwoLongEnough) {
  // Read cost 100 ns: a batch must last 10 µs. Calls of 3 µs: 2 calls are
  // too short (6 µs), 4 are enough (12 µs); margins of microseconds, which
  // neither a sanitizer's overhead nor a busy machine spans.
  const auto o = options(10, 0, std::nullopt);
  Measurement m(o, 100);
  m.run([] { spin(3000); });
  EXPECT_EQ(m.batch_size(), 4u);
}

TEST(Measurement, AutoBatchIsOneForASlowCall) {
  const auto o = options(10, 0, std::nullopt);
  Measurement m(o, 10);
  m.run([] { spin(5000); });
  EXPECT_EQ(m.batch_size(), 1u);
}

TEST(Measurement, AutoBatchIsBoundedForAFreeCall) {
  const auto o = options(10, 0, std::nullopt);
  Measurement m(o, 20);
  m.run([] {});
  EXPECT_TRUE(std::has_single_bit(m.batch_size()));
  EXPECT_GT(m.batch_size(), 1u);
  EXPECT_LE(m.batch_size(), Measurement::kMaxAutoBatch);
}

TEST(Measurement, StopKeepsWhatWasMeasured) {
  const auto o = options(1000, 0, 1);
  Measurement m(o, 20);
  int calls = 0;
  m.run([&] {
    if (++calls == 100) m.request_stop();
  });
  EXPECT_EQ(m.samples().size(), 100u);  // the sample in flight completes
}

TEST(Measurement, FailureThrowsAfterTheLoop) {
  const auto o = options(1000, 0, 1);
  Measurement m(o, 20);
  int calls = 0;
  try {
    m.run([&] {
      if (++calls == 50) m.fail("echo mismatch");
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "echo mismatch");
  }
  EXPECT_EQ(calls, 50);
}

TEST(Measurement, RunTwiceIsAnError) {
  const auto o = options(1, 0, 1);
  Measurement m(o, 20);
  m.run([] {});
  EXPECT_THROW(m.run([] {}), std::logic_error);
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(Measurement, LoopAllocatesNothing) {
  const auto o = options(100000, 100, std::nullopt);
  Measurement m(o, 20);  // the buffer is allocated here, not in run()
  const int allocations = mwbench::testing::count_allocations([&] { m.run([] {}); });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(m.samples().size(), 100000u);
}
#endif

}  // namespace

namespace {

// Sets an environment variable for one test and restores its absence after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

TEST(Measurement, InjectedDelaySlowsEveryCallAndIsReported) {
  const ScopedEnv env("MWBENCH_INJECT_DELAY_NS", "20000");
  const auto o = options(50, 0, 1);
  Measurement m(o, 20);
  EXPECT_EQ(m.injected_delay_ns(), 20000u);
  std::uint64_t calls = 0;
  m.run([&] { ++calls; });
  EXPECT_EQ(calls, 50u);
  for (const std::uint64_t sample : m.samples()) EXPECT_GE(sample, 20000u);
}

TEST(Measurement, NoInjectedDelayByDefault) {
  const auto o = options(10, 0, 1);
  Measurement m(o, 20);
  EXPECT_EQ(m.injected_delay_ns(), 0u);
}

TEST(Measurement, InjectedDelayMustBeANumber) {
  const ScopedEnv env("MWBENCH_INJECT_DELAY_NS", "soon");
  const auto o = options(10, 0, 1);
  EXPECT_THROW(Measurement(o, 20), mwbench::UsageError);
}

// The measuring file of one test: a path of its own in the scratch
// directory, named in MWBENCH_MEASURING_FILE, removed before and after.
class MeasuringFile {
 public:
  explicit MeasuringFile(const std::string& name)
      : path_(::testing::TempDir() + name + "-" + std::to_string(getpid())),
        env_("MWBENCH_MEASURING_FILE", path_.c_str()) {
    std::remove(path_.c_str());
  }
  ~MeasuringFile() { std::remove(path_.c_str()); }
  MeasuringFile(const MeasuringFile&) = delete;
  MeasuringFile& operator=(const MeasuringFile&) = delete;

  bool exists() const { return access(path_.c_str(), F_OK) == 0; }

 private:
  const std::string path_;
  const ScopedEnv env_;
};

// A test outside waits for this file instead of guessing when the loop runs.
TEST(Measurement, MeasuringFileAppearsOnceTheFirstSampleIsKept) {
  const MeasuringFile file("mwbench-measuring");
  const auto o = options(50, 5, 1);
  Measurement m(o, 20);
  bool seen_before_first_sample = false;
  std::uint64_t calls = 0;
  m.run([&] {
    // Call 6 is the first sample's: the file must not exist during it.
    if (++calls == 6) seen_before_first_sample = file.exists();
  });
  EXPECT_FALSE(seen_before_first_sample);
  EXPECT_TRUE(file.exists());
  EXPECT_EQ(m.samples().size(), 50u);
}

TEST(Measurement, NoMeasuringFileWithoutASample) {
  const MeasuringFile file("mwbench-unmeasured");
  const auto o = options(50, 0, 1);
  Measurement m(o, 20);
  m.request_stop();
  m.run([] {});
  EXPECT_TRUE(m.samples().empty());
  EXPECT_FALSE(file.exists());
}

}  // namespace
