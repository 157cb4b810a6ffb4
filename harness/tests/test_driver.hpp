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
    Description d("fake", "Nothing", "0");
    d.operations = {{"noop", false}, {"blob", true}, {"fanout", true}};
    d.modes = {{"remote", {"tcp", "unix"}}};
    d.host_local = {"unix"};
    d.one_way = {"noop"};
    d.open_loop = {"noop"};
    d.one_way_options = {{"color", {"red"}}};
    if (collocated_) d.modes["collocated"] = {"inproc"};
    d.options = {{"color", "a made-up option"}, {"shape", "one of a few values"}};
    d.option_values = {{"shape", {"round", "square"}}};
    d.max_servants = 4;  // max_threads left unbounded
    d.max_subscribers = 16;
    return d;
  }
  // Its endpoint carries --bind, as a real server's does. A fan-out server
  // says each of its subscribers received one event per subscriber number:
  // counts the test can tell apart.
  void serve(const DriverOptions& o, ServerContext& context) override {
    context.publish_endpoint("fake://" + o.bind_address);
    if (o.operation != kFanoutOperation) return;
    std::vector<std::uint64_t> received;
    for (int s = 0; s < o.subscribers; ++s) received.push_back(o.first_subscriber + s);
    context.record_events_received(received);
  }
  void measure(const DriverOptions& o, Measurement& m) override {
    if (o.operation == kFanoutOperation) {
      if (o.role == Role::client) m.read_endpoints();
      m.run([] {});
      m.record_events_published(o.warmup + m.samples().size());
      if (o.role == Role::collocated) {
        m.record_events_received(std::vector<std::uint64_t>(o.subscribers, 7));
      }
      return;
    }
    if (m.open_loop()) {  // each call answered within its send
      m.run_open([&m](std::uint64_t call) { m.completed(call); });
      return;
    }
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

// A client-only driver for one test: describes itself as FakeDriver and
// serves nothing; the test writes its measure().
class ClientDriver : public Driver {
 public:
  Description describe() const override { return FakeDriver().describe(); }
  void serve(const DriverOptions&, ServerContext&) override {}
};

}  // namespace mwbench::testing
