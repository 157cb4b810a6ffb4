// Argument validation: every bad argument exits 2 with one line that names
// the argument and lists what is allowed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "test_driver.hpp"

namespace {

using mwbench::testing::run_fake;
using Args = std::vector<std::string>;

// A valid collocated command line, to which each test adds one bad argument.
Args cell(Args extra) {
  Args a = {"--role", "collocated", "--operation", "noop",     "--transport",
            "inproc", "--samples",  "10",          "--warmup", "0"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

void expect_usage_error(const Args& args, const std::vector<std::string>& fragments,
                        bool collocated = true) {
  const auto r = run_fake(args, collocated);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("mwbench-driver-fake: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line: " << r.err;
  for (const auto& f : fragments) EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
}

TEST(Arguments, ValidCellRuns) { EXPECT_EQ(run_fake(cell({})).status, 0); }

TEST(Arguments, DescribePrintsJson) {
  ::testing::internal::CaptureStdout();
  const auto r = run_fake({"--describe"});
  const auto out = nlohmann::json::parse(::testing::internal::GetCapturedStdout());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(out["contract"], 1);
  EXPECT_EQ(out["driver"], "fake");
  EXPECT_EQ(out["operations"]["blob"]["payload"], true);
  EXPECT_EQ(out["modes"]["collocated"], nlohmann::json::array({"inproc"}));
  EXPECT_EQ(out["max_servants"], 4);
  EXPECT_FALSE(out.contains("max_threads"));  // absent: unbounded
  EXPECT_EQ(out["host_local"], nlohmann::json::array({"unix"}));
  EXPECT_EQ(out["operations"]["noop"]["one_way"], true);
  EXPECT_EQ(out["option_values"], nlohmann::json({{"shape", {"round", "square"}}}));
  EXPECT_FALSE(out["operations"]["blob"].contains("one_way"));  // absent: timed on one host
}

TEST(Arguments, RoleIsRequired) {
  expect_usage_error({}, {"--role", "server, client, collocated"});
}

TEST(Arguments, UnknownRole) {
  expect_usage_error({"--role", "boss"}, {"--role boss", "server, client, collocated"});
}

TEST(Arguments, UnsupportedMode) {
  expect_usage_error(cell({}), {"--role collocated", "supported modes: remote"}, false);
}

TEST(Arguments, UnknownOperation) {
  Args a = cell({});
  a[3] = "bogus";
  expect_usage_error(a, {"--operation bogus", "allowed: blob, fanout, noop"});
}

TEST(Arguments, UnsupportedTransport) {
  Args a = cell({});
  a[5] = "tcp";
  expect_usage_error(a, {"--transport tcp", "mode collocated", "allowed: inproc"});
}

TEST(Arguments, PayloadForAnOperationWithoutOne) {
  expect_usage_error(cell({"--payload-bytes", "8"}), {"--payload-bytes 8", "'noop'", "allowed: 0"});
}

TEST(Arguments, UnknownOptionKey) {
  expect_usage_error(cell({"--option", "flavor=1"}),
                     {"--option flavor", "allowed: color, shape, fault"});
}

TEST(Arguments, OptionValuesAreThoseTheDescriptionLists) {
  EXPECT_EQ(run_fake(cell({"--option", "shape=square"})).status, 0);
  expect_usage_error(cell({"--option", "shape=oval"}),
                     {"--option shape=oval", "not a value fake accepts", "allowed: round, square"});
  // An option without option_values takes any value.
  EXPECT_EQ(run_fake(cell({"--option", "color=anything"})).status, 0);
}

TEST(Arguments, OptionWithoutValue) {
  expect_usage_error(cell({"--option", "color"}), {"--option color", "KEY=VALUE"});
}

TEST(Arguments, UnknownFault) {
  expect_usage_error(cell({"--option", "fault=explode"}), {"fault=explode", "exit, crash, hang"});
}

TEST(Arguments, RepeatedOptionsAllCount) {
  EXPECT_EQ(run_fake(cell({"--option", "color=red", "--option", "fault=hang"})).status, 0);
}

TEST(Arguments, BadBatch) {
  expect_usage_error(cell({"--batch", "0"}), {"--batch 0", "auto"});
  expect_usage_error(cell({"--batch", "x"}), {"--batch x", "auto"});
}

TEST(Arguments, NotANumber) { expect_usage_error(cell({"--samples", "many"}), {"--samples"}); }

TEST(Arguments, UnexpectedArgument) {
  expect_usage_error(cell({"--frobnicate"}), {"--frobnicate"});
}

TEST(Arguments, BindTakesAnIPv4AddressLiteral) {
  EXPECT_EQ(run_fake(cell({"--bind", "127.0.0.2"})).status, 0);
  expect_usage_error(cell({"--bind", "999.1.1.1"}), {"--bind 999.1.1.1", "IPv4 address"});
  expect_usage_error(cell({"--bind", "example.org"}), {"--bind example.org", "IPv4 address"});
  expect_usage_error(cell({"--bind", "::1"}), {"--bind ::1", "IPv4 address"});
  expect_usage_error(cell({"--bind", "127.1"}), {"--bind 127.1", "IPv4 address"});
  expect_usage_error(cell({"--bind", ""}), {"--bind ''", "IPv4 address"});
  expect_usage_error(cell({"--bind", "0.0.0.0"}), {"--bind 0.0.0.0", "wildcard"});
}

TEST(Arguments, ThreadsAndServantsAreBoundedByTheDescription) {
  EXPECT_EQ(run_fake(cell({"--threads", "3", "--servants", "4"})).status, 0);
  expect_usage_error(cell({"--threads", "0"}), {"--threads 0", "at least 1"});
  expect_usage_error(cell({"--servants", "0"}), {"--servants 0", "at least 1"});
  expect_usage_error(cell({"--servants", "5"}),
                     {"--servants 5", "fake supports at most 4", "max_servants"});
}

TEST(Arguments, MemoryLimitMustBePositive) {
  expect_usage_error(cell({"--memory-limit-mb", "0"}), {"--memory-limit-mb 0", "positive"});
}

TEST(Arguments, EndpointFileRequiredForServerAndClient) {
  expect_usage_error({"--role", "client", "--operation", "noop", "--transport", "tcp"},
                     {"--endpoint-file", "--role client"});
}

TEST(Arguments, SubscribersBelongToTheFanoutOperation) {
  expect_usage_error(cell({"--subscribers", "2"}), {"--subscribers 2", "only the operation"});
  expect_usage_error(cell({"--first-subscriber", "3"}), {"--first-subscriber", "'fanout'"});
}

TEST(Arguments, SubscribersAreBoundedByTheDescription) {
  Args a = cell({"--subscribers", "17"});
  a[3] = "fanout";
  expect_usage_error(a, {"--subscribers 17", "at most 16", "max_subscribers"});
  a[a.size() - 1] = "0";
  expect_usage_error(a, {"--subscribers 0", "at least 1"});
}

TEST(Arguments, OnlyAFanoutClientReadsSeveralEndpointFiles) {
  const Args client = {"--role",          "client", "--transport",     "tcp",
                       "--endpoint-file", "a",      "--endpoint-file", "b"};
  Args noop = client;
  noop.insert(noop.end(), {"--operation", "noop"});
  expect_usage_error(noop, {"--endpoint-file given 2 times", "only a fan-out client"}, false);
  Args server = {"--role",          "server", "--operation",     "fanout", "--transport",   "tcp",
                 "--endpoint-file", "a",      "--endpoint-file", "b",      "--subscribers", "2"};
  expect_usage_error(server, {"--endpoint-file given 2 times", "publishes one endpoint"}, false);
  Args more = client;
  more.insert(more.end(), {"--operation", "fanout"});
  expect_usage_error(more, {"more subscriber processes than --subscribers 1"}, false);
}

TEST(Arguments, FirstSubscriberOnlyForASubscriberProcess) {
  Args a = cell({"--subscribers", "2", "--first-subscriber", "1"});
  a[3] = "fanout";
  expect_usage_error(a, {"--first-subscriber", "--role server"});
}

TEST(Arguments, PriorityOutOfRange) {
  expect_usage_error(cell({"--priority", "100"}), {"--priority 100", "1-99"});
}

TEST(Arguments, DescribeListsOpenLoopOperationsAndOneWayOptions) {
  ::testing::internal::CaptureStdout();
  run_fake({"--describe"});
  const auto out = nlohmann::json::parse(::testing::internal::GetCapturedStdout());
  EXPECT_EQ(out["open_loop"], nlohmann::json::array({"noop"}));
  EXPECT_EQ(out["one_way_options"], nlohmann::json({{"color", {"red"}}}));
}

TEST(Arguments, OpenLoadRunsAnOperationOfOpenLoop) {
  EXPECT_EQ(run_fake(cell({"--load", "constant:20000"})).status, 0);
  EXPECT_EQ(run_fake(cell({"--load", "poisson:2.5e4", "--load-seed", "7"})).status, 0);
  EXPECT_EQ(run_fake(cell({"--load", "closed", "--load-seed", "7"})).status, 0);
  EXPECT_EQ(run_fake(cell({"--load", "constant:20000", "--batch", "auto"})).status, 0);
}

TEST(Arguments, LoadRateMustBePositiveAndFinite) {
  for (const char* bad : {"poisson:-3", "constant:0", "constant:inf", "poisson:nan",
                          "constant:", "constant:1x", "constant:1e999", "constant:0.0001"}) {
    expect_usage_error(cell({"--load", bad}), {std::string("--load ") + bad, "rate must be"});
  }
  expect_usage_error(cell({"--load", "steady:5"}),
                     {"--load steady:5", "allowed: closed, constant:RATE, poisson:RATE"});
  expect_usage_error(cell({"--load-seed", "-1"}), {"--load-seed -1", "an integer from 0"});
  expect_usage_error(cell({"--load-seed", "18446744073709551616"}),
                     {"--load-seed 18446744073709551616", "an integer from 0"});
}

TEST(Arguments, OpenLoadNeedsOneThreadOneCallPerSampleAndAnOpenLoopOperation) {
  expect_usage_error(cell({"--load", "constant:1000", "--threads", "2"}),
                     {"--load constant:1000", "--threads 1, not 2"});
  expect_usage_error(cell({"--load", "poisson:1000", "--batch", "4"}),
                     {"--load poisson:1000", "--batch 1 or auto, not 4"});
  Args a = cell({"--load", "constant:1000", "--payload-bytes", "8"});
  a[3] = "blob";
  expect_usage_error(
      a, {"--load constant:1000", "no open-loop load for operation blob", "open_loop: noop"});
}

TEST(Arguments, AServerTakesNoLoad) {
  const Args server = {"--role",      "server", "--operation",     "noop",
                       "--transport", "tcp",    "--endpoint-file", "unused"};
  Args load = server;
  load.insert(load.end(), {"--load", "constant:1000"});
  expect_usage_error(load, {"--load constant:1000", "a server sends no load"}, false);
  Args seed = server;
  seed.insert(seed.end(), {"--load-seed", "3"});
  expect_usage_error(seed, {"--load-seed", "a server sends no load"}, false);
}

TEST(Placement, InvalidCpuIsAClearError) {
  expect_usage_error(cell({"--cpu", "4000"}), {"--cpu 4000", "allowed: 0"});
  expect_usage_error(cell({"--cpu", "-1"}), {"--cpu -1", "allowed: "});
}

TEST(Placement, PinnedRunSucceeds) { EXPECT_EQ(run_fake(cell({"--cpu", "0"})).status, 0); }

TEST(PlacementDeathTest, FifoWithoutPermissionSaysWhatIsNeeded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // In a child: give up root (if we are root) so that SCHED_FIFO is refused.
  EXPECT_EXIT(
      {
        if (::geteuid() == 0 && ::setuid(65534) != 0) std::_Exit(9);
        const auto r = run_fake(cell({"--priority", "10"}));
        std::fputs(r.err.c_str(), stderr);
        std::_Exit(r.status);
      },
      ::testing::ExitedWithCode(1), "--priority 10: not permitted.*CAP_SYS_NICE.*RLIMIT_RTPRIO");
}

}  // namespace
