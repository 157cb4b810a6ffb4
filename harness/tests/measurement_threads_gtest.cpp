// Measurement::run_threads(): per-thread setup, series, stop and failure
// across threads, and the one-thread path.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "alloc_counter.hpp"
#include "measured_calls.hpp"
#include "mwbench/measurement.hpp"

namespace {

using mwbench::DriverOptions;
using mwbench::Measurement;
using mwbench::testing::spin;

constexpr auto options = mwbench::testing::collocated_options;

TEST(MeasurementThreads, EveryThreadTakesItsOwnSeries) {
  const auto o = options(4, 500, 10, 2);
  Measurement m(o, 20);
  std::atomic<std::uint64_t> calls[4] = {};
  std::mutex mutex;
  std::set<std::thread::id> setup_threads;
  m.run_threads([&](int thread) {
    {
      std::lock_guard lock(mutex);
      setup_threads.insert(std::this_thread::get_id());
    }
    return [counter = &calls[thread]] { counter->fetch_add(1, std::memory_order_relaxed); };
  });
  EXPECT_EQ(setup_threads.size(), 4u);
  EXPECT_FALSE(setup_threads.contains(std::this_thread::get_id()));
  for (const auto& c : calls) EXPECT_EQ(c.load(), 10u + 500u * 2u);
  ASSERT_EQ(m.series().size(), 4u);
  for (const auto& s : m.series()) {
    EXPECT_EQ(s.count, 500u);
    EXPECT_LE(s.wall_ns, m.measured_wall_ns());
  }
  EXPECT_EQ(m.samples().size(), 2000u);
  EXPECT_EQ(m.samples_wanted(), 2000u);
  EXPECT_EQ(m.batch_size(), 2u);
  EXPECT_EQ(m.warmup_done(), 10u);
}

TEST(MeasurementThreads, NoCallBeforeEverySetupIsDone) {
  const auto o = options(3, 10, 5, 1);
  Measurement m(o, 20);
  std::atomic<int> setups_done{0};
  std::atomic<bool> early_call{false};
  m.run_threads([&](int thread) {
    if (thread == 2) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ++setups_done;
    return [&] {
      if (setups_done.load() != 3) early_call = true;
    };
  });
  EXPECT_FALSE(early_call.load());
}

TEST(MeasurementThreads, AutoBatchIsTheLargestAnyThreadPicked) {
  // Read cost 10 ns: a batch must last 1000 ns. Thread 0's free call needs a
  // large batch; the others' 5 us calls need none.
  const auto o = options(3, 10, 0, std::nullopt);
  Measurement m(o, 10);
  m.run_threads([](int thread) {
    return [thread] {
      if (thread != 0) spin(5000);
      // Not quite free: a call the optimizer folds away would climb to the
      // largest batch (2^24), and the other threads would then take hours.
      asm volatile("" ::: "memory");
    };
  });
  EXPECT_TRUE(std::has_single_bit(m.batch_size()));
  EXPECT_GT(m.batch_size(), 1u);
  for (const auto& s : m.series()) EXPECT_EQ(s.count, 10u);
}

TEST(MeasurementThreads, StopKeepsEachSeriesAndPacksThem) {
  // Thread 0's calls take 1 us; it stops everything once thread 1, whose
  // calls take 50 us, has made 5. The samples must be thread 0's, then
  // thread 1's, with no gap (the zeros of thread 0's unused buffer) between.
  const auto o = options(2, 100000, 0, 1);
  Measurement m(o, 20);
  std::atomic<int> slow_calls{0};
  m.run_threads([&](int thread) {
    return [&, thread] {
      if (thread == 1) {
        spin(50000);
        ++slow_calls;
        return;
      }
      spin(1000);
      if (slow_calls.load() >= 5) m.request_stop();
    };
  });
  const auto series = m.series();
  ASSERT_EQ(series.size(), 2u);
  EXPECT_LT(series[0].count, 100000u);
  EXPECT_GE(series[1].count, 4u);
  ASSERT_EQ(m.samples().size(), series[0].count + series[1].count);
  for (std::uint64_t i = series[0].count; i < m.samples().size(); ++i) {
    EXPECT_GE(m.samples()[i], 50000u) << "sample " << i << " is not thread 1's";
  }
}

TEST(MeasurementThreads, FailInOneThreadStopsAllAndThrows) {
  const auto o = options(2, 1'000'000, 0, 1);  // 10 s per thread if nothing stopped it
  Measurement m(o, 20);
  const auto start = std::chrono::steady_clock::now();
  try {
    m.run_threads([&m](int thread) {
      return [&m, thread, calls = 0]() mutable {
        spin(10000);
        if (thread == 1 && ++calls == 50) m.fail("echo mismatch");
      };
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "echo mismatch");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(MeasurementThreads, SetupFailureIsRethrownAndNoThreadCalls) {
  const auto o = options(4, 100, 10, 1);
  Measurement m(o, 20);
  std::atomic<int> calls{0};
  try {
    m.run_threads([&](int thread) {
      if (thread == 1) throw std::runtime_error("no connection");
      return [&] { ++calls; };
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no connection");
  }
  EXPECT_EQ(calls.load(), 0);
}

TEST(MeasurementThreads, ExceptionFromACallStopsTheOthers) {
  const auto o = options(3, 1'000'000, 0, 1);
  Measurement m(o, 20);
  EXPECT_THROW(m.run_threads([](int thread) {
    return [thread, calls = 0]() mutable {
      spin(10000);
      if (thread == 2 && ++calls == 20) throw std::runtime_error("connection lost");
    };
  }),
               std::runtime_error);
}

TEST(MeasurementThreads, OneThreadRunsOnTheCallingThread) {
  const auto o = options(1, 100, 0, 1);
  Measurement m(o, 20);
  std::thread::id setup_thread;
  m.run_threads([&](int) {
    setup_thread = std::this_thread::get_id();
    return [] {};
  });
  EXPECT_EQ(setup_thread, std::this_thread::get_id());
  ASSERT_EQ(m.series().size(), 1u);
  EXPECT_EQ(m.series()[0].count, 100u);
  EXPECT_EQ(m.measured_wall_ns(), m.probe().wall_ns());
}

TEST(MeasurementThreads, RunWithSeveralThreadsIsAnError) {
  const auto o = options(2, 10, 0, 1);
  Measurement m(o, 20);
  EXPECT_THROW(m.run([] {}), std::logic_error);
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(MeasurementThreads, AllocationsDoNotGrowWithTheSamples) {
  // Starting threads allocates; the loops must not: ten times the samples,
  // the same allocations.
  auto allocations = [](std::uint64_t samples) {
    const auto o = options(3, samples, 100, std::nullopt);
    Measurement m(o, 20);
    return mwbench::testing::count_allocations([&] { m.run_threads([](int) { return [] {}; }); });
  };
  EXPECT_EQ(allocations(1000), allocations(10000));
}
#endif

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)  // no RLIMIT_AS there

// The address space this process has mapped, in bytes (/proc/self/statm).
std::uint64_t mapped_bytes() {
  std::uint64_t pages = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%" SCNu64, &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// Runs four threads with no room left to start one; exits 1 with the error.
[[noreturn]] void run_without_room_for_threads() {
  const auto o = options(4, 10, 0, 1);
  Measurement m(o, 20);
  rlimit limit{};
  getrlimit(RLIMIT_AS, &limit);
  limit.rlim_cur = mapped_bytes() + (1u << 20);
  setrlimit(RLIMIT_AS, &limit);
  try {
    m.run_threads([](int) { return [] {}; });
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(1);
  }
  std::exit(0);
}

TEST(MeasurementThreadsDeathTest, AThreadThatCannotStartFailsTheRunWithoutDeadlock) {
  // No room for a thread stack (8 MiB of address space): no thread starts,
  // and run_threads() says so instead of waiting for them.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_without_room_for_threads(), ::testing::ExitedWithCode(1),
              "cannot start client thread 1 of 4");
}
#endif

}  // namespace
