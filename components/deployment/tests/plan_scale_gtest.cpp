// Plans at scale: the bounds on what a plan holds, named with the line of
// the element past them, and a plan of 20,000 instances read, checked,
// converted and compiled in both formats (correctness only: how long it
// takes is benchmarks/plan_scale.py's).
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_compiler.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

using PlanScale = ScratchTest;

// The one problem reading `file` gives: "file:line: message".
std::string read_error(const std::string& file) {
  return only_problem([&] { read_plan(file); }).to_string();
}

TEST_F(PlanScale, AChainOf20000InstancesIsValidInBothFormats) {
  const InterfaceCatalog interfaces = test_interfaces();
  Plan from_config = read_plan(write("chain.config", chain_plan(20'000)));
  complete_plan(from_config, interfaces);
  check_plan(from_config, interfaces);
  ASSERT_EQ(from_config.instances.size(), 20'000u);
  EXPECT_EQ(from_config.connections.size(), 19'999u);

  Plan from_cdp = read_plan(write("chain.cdp", write_cdp(from_config)));
  check_plan(from_cdp, interfaces);
  EXPECT_EQ(meaning(from_cdp), meaning(from_config));
  const std::string tables = compile_tables(from_cdp, {"chain", true, {}});
  EXPECT_NE(tables.find("\"a19999\""), std::string::npos);
}

TEST_F(PlanScale, RefusesAnInstancePastTheBoundNamingIt) {
  std::string text;
  for (std::size_t i = 0; i <= kMaxInstances; ++i)
    text += "nl.remedy.it.CCM.Component a" + std::to_string(i) +
            " A f\n nl.remedy.it.DnCX11.Node \"n\"\n";
  const std::string file = write("many.config", text);
  const std::string expected = file + ":" + std::to_string(2 * kMaxInstances + 1) +
                               ": one instance too many: a plan holds at most 100000 instances";
  EXPECT_EQ(read_error(file), expected);
}

TEST_F(PlanScale, RefusesAConnectionPastTheBoundNamingIt) {
  std::string text =
      "nl.remedy.it.CCM.Component a A f\n nl.remedy.it.DnCX11.Node \"n\"\n"
      " nl.remedy.it.DnCX11.Connection b\n";
  for (std::size_t i = 0; i <= kMaxConnections; ++i) text += "  r < f\n";
  const std::string file = write("links.config", text);
  EXPECT_EQ(read_error(file), file + ":" + std::to_string(kMaxConnections + 4) +
                                  ": one connection too many: a plan holds at most 200000 "
                                  "connections");
}

TEST_F(PlanScale, RefusesAnInstancePastTheBoundInACdp) {
  std::string text =
      "<Deployment:DeploymentPlan xmlns:Deployment=\"http://www.omg.org/Deployment\" "
      "xmlns:xmi=\"http://www.omg.org/XMI\">\n";
  for (std::size_t i = 0; i <= kMaxInstances; ++i) {
    const std::string id = "i" + std::to_string(i);
    text += "<instance xmi:id=\"" + id + "\"><name>" + id +
            "</name><node>n</node><implementation xmi:idref=\"x\"/></instance>\n";
  }
  const std::string file = write("many.cdp", text + "</Deployment:DeploymentPlan>\n");
  EXPECT_EQ(read_error(file), file + ":" + std::to_string(kMaxInstances + 2) +
                                  ": one instance too many: a plan holds at most 100000 instances");
}

}  // namespace
}  // namespace mwccm::deployment::testing
