// run_driver() end to end with a driver that does nothing: result files,
// faults, and a clean stop on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <new>
#include <thread>

#include "test_driver.hpp"

namespace {

namespace fs = std::filesystem;
using mwbench::testing::run_fake;

struct Parsed {
  std::string magic;
  nlohmann::json header;
  std::vector<std::uint64_t> samples;
  std::string last;
};

// A minimal reader; the real one is the orchestrator's.
Parsed read_result(const fs::path& path) {
  std::ifstream in(path);
  Parsed p;
  std::string line;
  std::getline(in, p.magic);
  std::getline(in, line);
  p.header = nlohmann::json::parse(line);
  while (std::getline(in, line)) {
    if (line == "end") {
      p.last = line;
      break;
    }
    p.samples.push_back(std::stoull(line));
  }
  return p;
}

class RunDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    // Named after the test, not the process: a death test's child runs SetUp
    // again in a process of its own and dies before TearDown, so only a name
    // the parent shares lets the parent's TearDown remove what the child made.
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("mwbench-run-gtest-") + test->test_suite_name() + "." + test->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  // A collocated cell of the fake driver's noop, writing path("out"), with
  // `extra` arguments.
  mwbench::testing::RunResult collocated(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--role",      "collocated", "--operation", "noop",
                                     "--transport", "inproc",     "--output",    path("out")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_fake(args);
  }

  fs::path dir_;
};

TEST_F(RunDriver, CollocatedWritesAResultFile) {
  const auto r = collocated({"--samples", "50", "--warmup", "5", "--option", "color=red"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Parsed p = read_result(path("out"));
  EXPECT_EQ(p.magic, "mwbench-result 1");
  EXPECT_EQ(p.samples.size(), 50u);
  EXPECT_EQ(p.last, "end");
  const auto& h = p.header;
  EXPECT_EQ(h["sample_count"], 50);
  EXPECT_EQ(h["role"], "collocated");
  EXPECT_EQ(h["warmup"], 5);
  EXPECT_EQ(h["batch_size"], 1);
  EXPECT_EQ(h["options"], nlohmann::json({{"color", "red"}}));
  EXPECT_EQ(h["clock"]["source"], "CLOCK_MONOTONIC");
  EXPECT_TRUE(h["process"]["cpu_requested"].is_null());
  EXPECT_EQ(h["process"]["policy"], "SCHED_OTHER");
  EXPECT_EQ(h["process"]["pid"], ::getpid());
  for (const char* key :
       {"voluntary_switches", "involuntary_switches", "user_us", "system_us", "max_rss_kb"}) {
    EXPECT_TRUE(h["rusage"].contains(key)) << key;
  }
}

TEST_F(RunDriver, AutoBatchAndPinningAreRecorded) {
  const auto r = collocated({"--samples", "10", "--batch", "auto", "--cpu", "0"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto h = read_result(path("out")).header;
  EXPECT_TRUE(std::has_single_bit(h["batch_size"].get<std::uint64_t>()));
  EXPECT_EQ(h["process"]["cpu_requested"], 0);
  EXPECT_EQ(h["process"]["cpu_first"], 0);
  EXPECT_EQ(h["process"]["cpu_last"], 0);
}

TEST_F(RunDriver, ServerPublishesAndWritesAHeaderOnlyResult) {
  const auto r = run_fake({"--role", "server", "--operation", "noop", "--transport", "tcp",
                           "--endpoint-file", path("ep"), "--output", path("out")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream ep(path("ep"));
  std::string line;
  std::getline(ep, line);
  EXPECT_EQ(line, "fake://127.0.0.1");  // --bind's default: loopback
  const Parsed p = read_result(path("out"));
  EXPECT_EQ(p.header["role"], "server");
  EXPECT_EQ(p.header["sample_count"], 0);
  EXPECT_TRUE(p.samples.empty());
  EXPECT_EQ(p.last, "end");
}

TEST_F(RunDriver, TheServerIsGivenItsBindAddress) {
  const auto r = run_fake({"--role", "server", "--operation", "noop", "--transport", "tcp",
                           "--bind", "10.1.2.3", "--endpoint-file", path("ep")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream ep(path("ep"));
  std::string line;
  std::getline(ep, line);
  EXPECT_EQ(line, "fake://10.1.2.3");
}

TEST_F(RunDriver, FanoutHeadersSayWhoPublishedAndWhoReceivedWhat) {
  auto r = run_fake({"--role", "server", "--operation", "fanout", "--transport", "tcp",
                     "--subscribers", "3", "--first-subscriber", "5", "--endpoint-file",
                     path("ep1"), "--output", path("server")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_result(path("server")).header["fanout"],
            nlohmann::json(
                {{"subscribers", 3}, {"first_subscriber", 5}, {"events_received", {5, 6, 7}}}));

  std::ofstream(path("ep2")) << "fake://second\n";
  r = run_fake({"--role", "client", "--operation", "fanout", "--transport", "tcp", "--subscribers",
                "4", "--endpoint-file", path("ep1"), "--endpoint-file", path("ep2"), "--samples",
                "10", "--warmup", "3", "--output", path("client")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(
      read_result(path("client")).header["fanout"],
      nlohmann::json({{"subscribers", 4}, {"subscriber_processes", 2}, {"events_published", 13}}));

  r = run_fake({"--role", "collocated", "--operation", "fanout", "--transport", "inproc",
                "--subscribers", "2", "--samples", "10", "--warmup", "0", "--output",
                path("collocated")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_result(path("collocated")).header["fanout"],
            nlohmann::json({{"subscribers", 2},
                            {"subscriber_processes", 0},
                            {"events_published", 10},
                            {"events_received", {7, 7}}}));
}

TEST_F(RunDriver, OtherOperationsHaveNoFanoutHeader) {
  ASSERT_EQ(run_fake({"--role", "collocated", "--operation", "noop", "--transport", "inproc",
                      "--samples", "5", "--output", path("out")})
                .status,
            0);
  EXPECT_FALSE(read_result(path("out")).header.contains("fanout"));
}

TEST_F(RunDriver, FaultExitLeavesBeforePublishing) {
  const auto r = run_fake({"--role", "server", "--operation", "noop", "--transport", "tcp",
                           "--endpoint-file", path("ep"), "--option", "fault=exit"});
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("fault=exit"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("ep")));
}

TEST_F(RunDriver, FaultCrashAbortsAfterPublishing) {
  // "fast" forks without exec, so the child writes into this test's dir_.
  GTEST_FLAG_SET(death_test_style, "fast");
  const std::vector<std::string> args = {"--role",      "server",     "--operation",     "noop",
                                         "--transport", "tcp",        "--endpoint-file", path("ep"),
                                         "--option",    "fault=crash"};
  EXPECT_EXIT(run_fake(args, true, false), ::testing::KilledBySignal(SIGABRT), "");
  EXPECT_TRUE(fs::exists(path("ep")));
}

// A client whose calls take a millisecond, so a SIGTERM lands mid-loop.
class SlowDriver final : public mwbench::testing::ClientDriver {
 public:
  void measure(const mwbench::DriverOptions&, mwbench::Measurement& m) override {
    m.run_threads(
        [](int) { return [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }; });
  }
};

// Runs SlowDriver with `extra` arguments and sends SIGTERM 300 ms in.
mwbench::testing::RunResult run_slow_and_terminate(std::vector<std::string> args) {
  // Block SIGTERM here first, so the sender thread inherits the mask and the
  // only thread that can take the signal is the harness's signal thread.
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &term, &old);
  std::thread sender([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGTERM);
  });

  SlowDriver driver;
  args.insert(args.begin(), "mwbench-driver-fake");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStderr();
  const int status = mwbench::run_driver(static_cast<int>(argv.size()), argv.data(), driver);
  const std::string err = ::testing::internal::GetCapturedStderr();
  sender.join();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return {status, err};
}

TEST_F(RunDriver, SigtermStopsTheClientAndKeepsItsSamples) {
  const auto r = run_slow_and_terminate({"--role", "collocated", "--operation", "noop",
                                         "--transport", "inproc", "--samples", "100000", "--warmup",
                                         "0", "--output", path("out")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("stopped by SIGTERM after"), std::string::npos) << r.err;
  const Parsed p = read_result(path("out"));
  EXPECT_GT(p.samples.size(), 0u);
  EXPECT_LT(p.samples.size(), 100000u);
  EXPECT_EQ(p.header["sample_count"], p.samples.size());
  EXPECT_FALSE(p.header.contains("series"));
  EXPECT_EQ(p.last, "end");
}

TEST_F(RunDriver, SigtermStopsEveryThreadAndKeepsTheirSeries) {
  const auto r = run_slow_and_terminate({"--role", "collocated", "--operation", "noop",
                                         "--transport", "inproc", "--samples", "100000", "--warmup",
                                         "0", "--threads", "3", "--output", path("out")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("of 300000 samples"), std::string::npos) << r.err;
  const Parsed p = read_result(path("out"));
  ASSERT_EQ(p.header["series"].size(), 3u);
  std::uint64_t total = 0;
  for (const auto& s : p.header["series"]) {
    EXPECT_GT(s["count"].get<std::uint64_t>(), 0u);
    total += s["count"].get<std::uint64_t>();
  }
  EXPECT_EQ(total, p.samples.size());
  EXPECT_EQ(p.header["sample_count"], p.samples.size());
}

TEST_F(RunDriver, SeveralThreadsWriteOneSeriesEach) {
  const auto r = collocated({"--samples", "50", "--warmup", "5", "--threads", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Parsed p = read_result(path("out"));
  const auto& h = p.header;
  EXPECT_EQ(h["threads"], 3);
  EXPECT_EQ(h["sample_count"], 150);
  EXPECT_EQ(p.samples.size(), 150u);
  ASSERT_EQ(h["series"].size(), 3u);
  for (int t = 0; t < 3; ++t) {
    const auto& s = h["series"][t];
    EXPECT_EQ(s["name"], "thread-" + std::to_string(t + 1));
    EXPECT_EQ(s["count"], 50);
    EXPECT_LE(s["wall_ns"].get<std::uint64_t>(), h["measured_wall_ns"].get<std::uint64_t>());
  }
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)  // no RLIMIT_AS there
TEST_F(RunDriver, MemoryLimitMakesAnOversizedBufferAClearError) {
  // In a child process: the limit is for the rest of a process's life.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(run_fake({"--role", "collocated", "--operation", "noop", "--transport",
                                  "inproc", "--samples", "100000000", "--memory-limit-mb", "256"},
                                 true, false)
                            .status),
              ::testing::ExitedWithCode(1),
              "^mwbench-driver-fake: error: sample buffers of 1 x 100000000 samples: out of "
              "memory \\(--memory-limit-mb 256\\)\n$");
}

// A driver whose measure() runs out of memory without saying where: it
// throws std::bad_alloc, or allocates all of --memory-limit-mb at once.
class GreedyDriver final : public mwbench::testing::ClientDriver {
 public:
  explicit GreedyDriver(bool allocate) : allocate_(allocate) {}
  void measure(const mwbench::DriverOptions& o, mwbench::Measurement&) override {
    if (!allocate_) throw std::bad_alloc();
    std::vector<char> hoard(static_cast<std::size_t>(*o.memory_limit_mb) << 20);
    std::printf("%d\n", hoard[0]);  // not reached: the allocation fails
  }

 private:
  bool allocate_;
};

// A client of 1 ms calls that, once stopped, checks that its cap was lifted.
class CapCheckingDriver final : public mwbench::testing::ClientDriver {
 public:
  void measure(const mwbench::DriverOptions&, mwbench::Measurement& m) override {
    m.run([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    if (limit.rlim_cur == rlim_t{100000} << 20) throw std::runtime_error("the cap was not lifted");
  }
};

// Runs CapCheckingDriver under a cap and stops it with SIGTERM; its status.
int run_capped_and_terminate() {
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &term, nullptr);
  std::thread sender([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGTERM);
  });
  CapCheckingDriver driver;
  std::vector<std::string> args = {"mwbench-driver-fake",
                                   "--role",
                                   "collocated",
                                   "--operation",
                                   "noop",
                                   "--transport",
                                   "inproc",
                                   "--samples",
                                   "100000",
                                   "--warmup",
                                   "0",
                                   "--memory-limit-mb",
                                   "100000"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  const int status = mwbench::run_driver(static_cast<int>(argv.size()), argv.data(), driver);
  sender.join();
  return status;
}

TEST_F(RunDriver, StopLiftsTheMemoryLimit) {
  // Stopping may need room the cap does not leave (omniORB starts a thread
  // to shut down), so a stop lifts it. In a child: the cap is for life.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(run_capped_and_terminate()), ::testing::ExitedWithCode(1),
              "stopped by SIGTERM after");
}

int run_greedy(bool allocate) {
  GreedyDriver driver(allocate);
  std::vector<std::string> args = {
      "mwbench-driver-fake", "--role", "collocated",        "--operation", "noop",
      "--transport",         "inproc", "--memory-limit-mb", "256"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return mwbench::run_driver(static_cast<int>(argv.size()), argv.data(), driver);
}

TEST_F(RunDriver, BadAllocNamesTheMemoryLimit) {
  // Thrown (run_driver() catches it), or a failed operator new on any thread
  // (the new_handler ends the process at once): the same line.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const bool allocate : {false, true}) {
    EXPECT_EXIT(std::exit(run_greedy(allocate)), ::testing::ExitedWithCode(1),
                "^mwbench-driver-fake: error: out of memory \\(--memory-limit-mb 256\\)\n$");
  }
}
#endif

}  // namespace
