// Endpoint publication (server) and waiting for it (client); stop callbacks.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "mwbench/driver.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono;

class Endpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mwbench-endpoint-gtest-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    options_.endpoint_file = (dir_ / "endpoint").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  mwbench::DriverOptions options_;
};

TEST_F(Endpoint, PublishIsAtomic) {
  // A reader racing the writer must only ever see a whole line.
  const std::string a(4096, 'a'), b(8192, 'b');
  std::atomic<bool> done{false};
  int partial = 0, whole = 0;
  std::thread reader([&] {
    while (!done) {
      std::ifstream in(options_.endpoint_file);
      if (!in) continue;
      std::ostringstream s;
      s << in.rdbuf();
      (s.str() == a + "\n" || s.str() == b + "\n") ? ++whole : ++partial;
    }
  });
  mwbench::ServerContext context(options_);
  for (int i = 0; i < 300; ++i) context.publish_endpoint(i % 2 ? a : b);
  done = true;
  reader.join();
  EXPECT_EQ(partial, 0);
  EXPECT_GT(whole, 0);
  EXPECT_FALSE(fs::exists(options_.endpoint_file + ".tmp"));
}

TEST_F(Endpoint, ReadWaitsForTheFile) {
  options_.timeout_s = 5;
  std::thread server([&] {
    std::this_thread::sleep_for(milliseconds(200));
    mwbench::ServerContext(options_).publish_endpoint("tcp://127.0.0.1:1");
  });
  mwbench::Measurement m(options_, 20);
  EXPECT_EQ(m.read_endpoint(), "tcp://127.0.0.1:1");
  server.join();
}

TEST_F(Endpoint, ReadTimesOutNamingThePath) {
  options_.timeout_s = 0.3;
  mwbench::Measurement m(options_, 20);
  const auto start = steady_clock::now();
  try {
    m.read_endpoint();
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(options_.endpoint_file), std::string::npos) << msg;
    EXPECT_NE(msg.find("--timeout"), std::string::npos) << msg;
  }
  const auto waited = steady_clock::now() - start;
  EXPECT_GE(waited, milliseconds(300));
  EXPECT_LT(waited, seconds(3));
}

TEST(StopCallback, RunsOnceOnStop) {
  mwbench::DriverOptions o;
  mwbench::ServerContext context(o);
  int runs = 0;
  context.on_stop([&] { ++runs; });
  EXPECT_FALSE(context.stop_requested());
  context.request_stop();
  context.request_stop();
  EXPECT_TRUE(context.stop_requested());
  EXPECT_EQ(runs, 1);
}

TEST(StopCallback, RegisteredAfterTheStopRunsAtOnce) {
  mwbench::DriverOptions o;
  mwbench::ServerContext context(o);
  context.request_stop();
  int runs = 0;
  context.on_stop([&] { ++runs; });
  EXPECT_EQ(runs, 1);
}

TEST(StopCallback, ScopedCallbackUnregisters) {
  mwbench::DriverOptions o;
  mwbench::ServerContext context(o);
  int runs = 0;
  {
    const mwbench::ScopedStopCallback scoped(context, [&] { ++runs; });
  }
  context.request_stop();
  EXPECT_EQ(runs, 0);
}

}  // namespace
