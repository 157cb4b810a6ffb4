// A driver without a middleware, for tests of run_driver(): its call does
// nothing, and it describes a made-up cell matrix.
#pragma once

#include <string>
#include <vector>

#include "mwbench/driver.hpp"

namespace mwbench::testing {

class FakeDriver final : public Driver {
 public:
  explicit FakeDriver(bool collocated = true) : collocated_(collocated) {}

  Description describe() const override {
    Description d;
    d.driver = "fake";
    d.middleware = "Nothing";
    d.middleware_version = "0";
    d.operations = {{"noop", false}, {"blob", true}};
    d.modes = {{"remote", {"tcp"}}};
    if (collocated_) d.modes["collocated"] = {"inproc"};
    d.options = {{"color", "a made-up option"}};
    d.max_servants = 4;  // max_threads left unbounded
    return d;
  }
  void serve(const DriverOptions&, ServerContext& context) override {
    context.publish_endpoint("fake://endpoint");
  }
  void measure(const DriverOptions&, Measurement& m) override {
    m.run_threads([](int) {
      return [sink = 0]() mutable {
        sink = sink + 1;
        asm volatile("" : : "r"(sink));  // keep the loop from folding away
      };
    });
  }

 private:
  bool collocated_;
};

// Runs run_driver() on `args` (argv[0] added) and captures standard error
// (not in a death test's child, where gtest already captures it).
struct RunResult {
  int status;
  std::string err;
};

inline RunResult run_fake(std::vector<std::string> args, bool collocated = true,
                          bool capture = true) {
  FakeDriver driver(collocated);
  args.insert(args.begin(), "mwbench-driver-fake");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  if (!capture) return {run_driver(static_cast<int>(argv.size()), argv.data(), driver), ""};
  ::testing::internal::CaptureStderr();
  const int status = run_driver(static_cast<int>(argv.size()), argv.data(), driver);
  return {status, ::testing::internal::GetCapturedStderr()};
}

}  // namespace mwbench::testing
