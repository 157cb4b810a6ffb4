// run_driver() end to end with a driver that does nothing: result files,
// faults, and a clean stop on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <fstream>
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
    dir_ = fs::temp_directory_path() / ("mwbench-run-gtest-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(RunDriver, CollocatedWritesAResultFile) {
  const auto r = run_fake({"--role", "collocated", "--operation", "noop", "--transport", "inproc",
                           "--samples", "50", "--warmup", "5", "--option", "color=red",
                           "--output", path("out")});
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
  for (const char* key : {"voluntary_switches", "involuntary_switches", "user_us", "system_us",
                          "max_rss_kb"}) {
    EXPECT_TRUE(h["rusage"].contains(key)) << key;
  }
}

TEST_F(RunDriver, AutoBatchAndPinningAreRecorded) {
  const auto r = run_fake({"--role", "collocated", "--operation", "noop", "--transport", "inproc",
                           "--samples", "10", "--batch", "auto", "--cpu", "0", "--output",
                           path("out")});
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
  EXPECT_EQ(line, "fake://endpoint");
  const Parsed p = read_result(path("out"));
  EXPECT_EQ(p.header["role"], "server");
  EXPECT_EQ(p.header["sample_count"], 0);
  EXPECT_TRUE(p.samples.empty());
  EXPECT_EQ(p.last, "end");
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
  const std::vector<std::string> args = {"--role", "server", "--operation", "noop", "--transport",
                                         "tcp", "--endpoint-file", path("ep"), "--option",
                                         "fault=crash"};
  EXPECT_EXIT(run_fake(args, true, false), ::testing::KilledBySignal(SIGABRT), "");
  EXPECT_TRUE(fs::exists(path("ep")));
}

// A client whose calls take a millisecond, so a SIGTERM lands mid-loop.
class SlowDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    return mwbench::testing::FakeDriver().describe();
  }
  void serve(const mwbench::DriverOptions&, mwbench::ServerContext&) override {}
  void measure(const mwbench::DriverOptions&, mwbench::Measurement& m) override {
    m.run([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
  }
};

TEST_F(RunDriver, SigtermStopsTheClientAndKeepsItsSamples) {
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
  std::vector<std::string> args = {"mwbench-driver-fake", "--role", "collocated", "--operation",
                                   "noop", "--transport", "inproc", "--samples", "100000",
                                   "--warmup", "0", "--output", path("out")};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  ::testing::internal::CaptureStderr();
  const int status = mwbench::run_driver(static_cast<int>(argv.size()), argv.data(), driver);
  const std::string err = ::testing::internal::GetCapturedStderr();
  sender.join();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);

  EXPECT_EQ(status, 1);
  EXPECT_NE(err.find("stopped by SIGTERM after"), std::string::npos) << err;
  const Parsed p = read_result(path("out"));
  EXPECT_GT(p.samples.size(), 0u);
  EXPECT_LT(p.samples.size(), 100000u);
  EXPECT_EQ(p.header["sample_count"], p.samples.size());
  EXPECT_EQ(p.last, "end");
}

}  // namespace
