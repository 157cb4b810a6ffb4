// run_driver() with an open --load: the result header's "load" object and
// the open loop's named series, written by the fake driver, whose calls are
// answered within their send.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_driver.hpp"

namespace {

namespace fs = std::filesystem;
using mwbench::testing::run_fake;

class RunDriverOpen : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / (std::string("mwbench-open-gtest-") + test->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a collocated noop cell with `extra` arguments; returns its header.
  nlohmann::json header_of(std::vector<std::string> extra) {
    const std::string out = (dir_ / "out").string();
    std::vector<std::string> args = {"--role",      "collocated", "--operation", "noop",
                                     "--transport", "inproc",     "--output",    out,
                                     "--samples",   "50",         "--warmup",    "5"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_fake(args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::ifstream in(out);
    std::string line;
    std::getline(in, line);
    std::getline(in, line);
    return nlohmann::json::parse(line);
  }

  fs::path dir_;
};

TEST_F(RunDriverOpen, TheHeaderSaysWhatWasOfferedAndAchieved) {
  const auto h = header_of({"--load", "poisson:20000", "--load-seed", "42"});
  ASSERT_TRUE(h.contains("load")) << h.dump();
  const auto& load = h["load"];
  EXPECT_EQ(load["kind"], "poisson");
  EXPECT_EQ(load["rate_per_s"], 20000.0);
  EXPECT_EQ(load["seed"], 42);
  EXPECT_EQ(load["calls"], 50);
  EXPECT_EQ(load["lost"], 0);
  EXPECT_EQ(load["late_threshold_ns"], 50000);
  for (const char* key :
       {"offered_per_s", "achieved_per_s", "late_sends", "max_send_lag_ns", "outstanding_at_end"}) {
    EXPECT_TRUE(load.contains(key)) << key;
  }
  EXPECT_EQ(h["sample_count"], 50);
  EXPECT_EQ(h["warmup"], 5);
  EXPECT_EQ(h["batch_size"], 1);
  EXPECT_EQ(h["named_series"], nlohmann::json::parse(R"([{"name": "service_time", "count": 50},
                                                         {"name": "send_lag", "count": 50}])"));
}

TEST_F(RunDriverOpen, AConstantLoadHasNoSeed) {
  const auto h = header_of({"--load", "constant:20000", "--batch", "auto"});
  EXPECT_EQ(h["load"]["kind"], "constant");
  EXPECT_FALSE(h["load"].contains("seed"));
  EXPECT_EQ(h["batch_size"], 1);
}

TEST_F(RunDriverOpen, AClosedLoopWritesNoLoad) {
  const auto h = header_of({"--load", "closed"});
  EXPECT_FALSE(h.contains("load"));
  EXPECT_FALSE(h.contains("named_series"));
}

}  // namespace
