// The plan checker: plans/basic_sp.cdp is valid; each rule, broken in a copy
// of its model, gives a problem naming the place, the element and what was
// expected; several problems are reported together. The rules of event
// delivery are event_delivery_check_gtest.cpp's.
#include <mwccm/deployment/localities.hpp>

#include "plan_check_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

TEST_F(PlanCheck, AcceptsBasicSp) { EXPECT_EQ(problems(), std::vector<std::string>{}); }

TEST_F(PlanCheck, NamesAnUnknownPortAndListsTheInstancesPorts) {
  Endpoint& end = connection("gps_position").internal_endpoints[1];
  end.port_name = "place";
  expect_problem(
      "connection 'gps_position': instance 'gps' (BasicSP::GPS) has no port 'place' (it has: tick "
      "(EventConsumer), position (Facet), ready (EventPublisher))",
      end.where);
}

TEST_F(PlanCheck, NamesAnUnknownInstance) {
  Endpoint& end = connection("tick").internal_endpoints[1];
  end.instance_id = "Compass";
  expect_problem("connection 'tick': instance 'Compass' is not declared in the plan", end.where);
}

TEST_F(PlanCheck, NamesAPortOfAnotherKind) {
  Endpoint& end = connection("tick").internal_endpoints[1];
  end.kind = PortKind::Facet;
  expect_problem("port 'tick' of 'gps' is a EventConsumer, not a Facet", end.where);
}

TEST_F(PlanCheck, NamesAReceptacleWhoseTypeTheFacetDoesNotProvide) {
  add_tuner();
  Connection& wrong = connection("airframe_position");
  wrong.deploy_requirements.clear();
  wrong.internal_endpoints[1] = ep("Tuner", "status", PortKind::Facet);
  expect_problem(
      "receptacle 'airframe' of 'hud' takes IDL:BasicSP/PositionData:1.0; facet 'status' of "
      "'tuner' "
      "provides IDL:Test/Status:1.0",
      wrong.where);
}

TEST_F(PlanCheck, AcceptsAFacetOfADerivedInterface) {
  add_tuner();
  Connection& derived = connection("airframe_position");
  derived.deploy_requirements.clear();
  derived.internal_endpoints[1] = ep("Tuner", "control", PortKind::Facet);
  EXPECT_EQ(problems(), std::vector<std::string>{});
}

TEST_F(PlanCheck, NamesASourceAndASinkOfDifferentEventTypes) {
  Connection& wrong = connection("tick");
  wrong.internal_endpoints[1] = ep("Airframe", "gps_ready", PortKind::EventConsumer);
  expect_problem(
      "source 'tick' of 'rate_gen' sends IDL:BasicSP/Tick:1.0; consumer 'gps_ready' of 'airframe' "
      "takes IDL:BasicSP/DataReady:1.0",
      wrong.where);
}

TEST_F(PlanCheck, NamesASimplexReceptacleConnectedTwice) {
  Connection& twice =
      add_connection("gps_again", ep("Airframe", "gps", PortKind::SimplexReceptacle),
                     ep("GPS", "position", PortKind::Facet));
  expect_problem(
      "SimplexReceptacle 'gps' of 'airframe' is already connected by connection 'gps_position'",
      twice.internal_endpoints[0].where);
}

TEST_F(PlanCheck, NamesAnEmitterConnectedTwiceAndAcceptsAMultiplexReceptacle) {
  add_tuner();
  add_connection("alarm1", ep("Tuner", "alarm", PortKind::EventEmitter),
                 ep("GPS", "tick", PortKind::EventConsumer));
  add_connection("many1", ep("Tuner", "listeners", PortKind::MultiplexReceptacle),
                 ep("GPS", "position", PortKind::Facet));
  add_connection("many2", ep("Tuner", "listeners", PortKind::MultiplexReceptacle),
                 ep("Airframe", "position", PortKind::Facet));
  EXPECT_EQ(problems(), std::vector<std::string>{});
  add_connection("alarm2", ep("Tuner", "alarm", PortKind::EventEmitter),
                 ep("GPS", "tick", PortKind::EventConsumer));
  expect_problem("EventEmitter 'alarm' of 'tuner' is already connected by connection 'alarm1'",
                 {"added", 3});
}

TEST_F(PlanCheck, NamesAConnectionThatJoinsTwoFacets) {
  Connection& wrong = connection("gps_position");
  wrong.internal_endpoints[0] = ep("Airframe", "position", PortKind::Facet);
  expect_problem("joins a Facet and a Facet", wrong.where);
}

TEST_F(PlanCheck, NamesAMissingEntryPointAndAnUnknownOne) {
  plan_.implementations[1].exec_parameters.clear();
  expect_problem("implementation 'GPSImpl' has no execParameter mwccm.HomeEntrypoint",
                 plan_.implementations[1].where);
  plan_ = read_cdp(plan_path("basic_sp.cdp"));
  Property& entrypoint = plan_.implementations[1].exec_parameters[0];
  entrypoint.value.text = "mwccm_home_BasicSP_CompassHome";
  expect_problem(
      "no component interface description (.ccd) names the home entry point "
      "'mwccm_home_BasicSP_CompassHome'",
      entrypoint.where);
}

TEST_F(PlanCheck, NamesAMissingArtifact) {
  plan_.implementations[0].artifact_ids = {"Elsewhere"};
  expect_problem(
      "implementation 'RateGenImpl' refers to artifact 'Elsewhere', which the plan does not "
      "declare",
      plan_.implementations[0].where);
}

TEST_F(PlanCheck, NamesDuplicateNamesWithTheFirstDeclaration) {
  instance("HUD").name = "gps";
  expect_problem("instance name 'gps' is already declared at " + instance("GPS").where.to_string(),
                 instance("HUD").where);
}

TEST_F(PlanCheck, NamesAnAttributeTheComponentDoesNotHaveOrOfAnotherType) {
  Property& hertz = instance("RateGen").config_properties[0];
  hertz.name = "rate";
  expect_problem(
      "configProperty 'rate' of instance 'rate_gen': BasicSP::RateGen has no writable attribute "
      "'rate' "
      "(it has: hertz)",
      hertz.where);
  hertz.name = "hertz";
  hertz.value = make_value(ValueKind::String, "20");
  expect_problem(
      "configProperty 'hertz' of instance 'rate_gen' is a tk_string; the attribute is a tk_ulong",
      hertz.where);
}

TEST_F(PlanCheck, NamesAnEnumeratorTheEnumDoesNotHave) {
  add_tuner();
  Property mode{
      "mode", make_enum_value("IDL:Test/Mode:1.0", {"SLOW", "FAST", "WARP"}, "WARP"), {"added", 4}};
  instance("Tuner").config_properties.push_back(mode);
  expect_problem("'WARP' is not an enumerator of IDL:Test/Mode:1.0", mode.where);
}

TEST_F(PlanCheck, NamesABadComponentServerSetting) {
  Property& threads = instance("SensorsServer").config_properties[0];
  threads.value = make_value(ValueKind::ULong, "0");
  expect_problem(
      "configProperty mwccm.Process.ORBThreads of component server 'sensors' is from 1 to 1024",
      threads.where);
  threads = {properties::kCpuAffinity, make_value(ValueKind::String, "0,,1"), {"added", 5}};
  expect_problem("is a tk_string of CPU numbers", threads.where);
  threads = {properties::kPriority, make_value(ValueKind::Long, "120"), {"added", 5}};
  expect_problem("is a SCHED_FIFO priority from 1 to 99, or 0 for none", threads.where);
  threads = {"mwccm.Process.Nice", make_value(ValueKind::Long, "1"), {"added", 5}};
  expect_problem("is not one mwccm knows", threads.where);
}

TEST_F(PlanCheck, NamesAPlainCxxConnectionAcrossProcesses) {
  Connection& local = connection("gps_position");
  local.deploy_requirements.push_back(
      {properties::kConnectionType, properties::kLocalInterface, {}, {}});
  expect_problem(
      "connection 'gps_position' is a Local_Interface (plain C++) connection between instances in "
      "different processes",
      local.where);
}

TEST_F(PlanCheck, NamesAPlanWithoutInstances) {
  plan_.instances.clear();
  plan_.connections.clear();
  expect_problem("the plan has no instances: nothing to deploy", {plan_.file, 1});
}

TEST_F(PlanCheck, NamesContradictoryLocalityConstraints) {
  plan_.locality_constraints[2].instance_ids = {"RateGen", "GPS"};  // DifferentProcess
  expect_problem(
      "localityConstraint DifferentProcess separates 'rate_gen' and 'gps', which a SameProcess "
      "constraint joins",
      plan_.locality_constraints[2].where);
  plan_ = read_cdp(plan_path("basic_sp.cdp"));
  instance("HUD").node = "Display";
  expect_problem(
      "localityConstraint SameProcess joins 'airframe' on node 'Avionics' and 'hud' on node "
      "'Display'",
      plan_.locality_constraints[1].where);
  plan_ = read_cdp(plan_path("basic_sp.cdp"));
  plan_.locality_constraints[0].instance_ids.push_back("Ghost");
  expect_problem(
      "localityConstraint SameProcess names instance 'Ghost', which the plan does not declare",
      plan_.locality_constraints[0].where);
}

TEST_F(PlanCheck, NamesANodeTheNodeMapDoesNotName) {
  const std::set<std::string> nodes{"Display"};
  const auto found = problems({nullptr, &nodes});
  ASSERT_EQ(found.size(), 5u);
  EXPECT_NE(
      found[0].find(
          "instance 'rate_gen' is on node 'Avionics', which the node map does not name (it names: "
          "'Display')"),
      std::string::npos);
}

TEST_F(PlanCheck, ReportsEveryProblemAtOnce) {
  connection("tick").internal_endpoints[1].port_name = "tock";
  instance("HUD").config_properties[0].name = "log";
  plan_.locality_constraints[0].instance_ids.push_back("Ghost");
  EXPECT_EQ(problems().size(), 3u);
}

TEST_F(PlanCheck, SplitsProcessesAsTheConstraintsSay) {
  const auto localities = split_by_locality(plan_);
  ASSERT_EQ(localities.size(), 2u);
  EXPECT_EQ(localities[0].name, "sensors");
  ASSERT_NE(localities[0].server, nullptr);
  EXPECT_EQ(localities[0].components.size(), 2u);
  EXPECT_EQ(localities[1].name, "Avionics.airframe");
  EXPECT_EQ(localities[1].components.size(), 2u);
  plan_.locality_constraints.clear();  // everything in the node's default process
  const auto one = split_by_locality(plan_);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].components.size(), 4u);
}

}  // namespace
}  // namespace mwccm::deployment::testing
