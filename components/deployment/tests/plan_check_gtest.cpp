// The plan checker: plans/basic_sp.cdp is valid; each rule, broken in a copy
// of its model, gives a problem naming the place, the element and what was
// expected; several problems are reported together.
#include <algorithm>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/deployment/typed_value.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

class PlanCheck : public ::testing::Test {
 protected:
  PlanCheck() : plan_(read_cdp(plan_path("basic_sp.cdp"))), interfaces_(test_interfaces()) {}

  // The problems check_plan finds, one string each ("file:line: message").
  std::vector<std::string> problems(const CheckScope& scope = {}) {
    try {
      check_plan(plan_, interfaces_, scope);
      return {};
    } catch (const PlanError& error) {
      std::vector<std::string> texts;
      for (const auto& problem : error.problems()) texts.push_back(problem.to_string());
      return texts;
    }
  }
  // Exactly one problem, holding `part`, at the line of `where`.
  void expect_problem(const std::string& part, const SourceLocation& where) {
    const auto found = problems();
    ASSERT_EQ(found.size(), 1u) << ::testing::PrintToString(found);
    EXPECT_NE(found[0].find(part), std::string::npos) << found[0];
    EXPECT_EQ(found[0].rfind(where.to_string() + ": ", 0), 0u)
        << found[0] << " is not at " << where.to_string();
  }
  Instance& instance(const std::string& id) {
    for (auto& i : plan_.instances) {
      if (i.id == id) return i;
    }
    throw std::logic_error("no instance " + id);
  }
  Connection& connection(const std::string& name) {
    for (auto& c : plan_.connections) {
      if (c.name == name) return c;
    }
    throw std::logic_error("no connection " + name);
  }
  // A Test::Tuner instance, for the port kinds Basic SP does not have.
  void add_tuner() {
    plan_.implementations.push_back({"TunerImpl",
                                     "TunerImpl",
                                     {"BasicSPArtifact"},
                                     {{properties::kHomeEntrypoint,
                                       make_value(ValueKind::String, "mwccm_home_Test_TunerHome"),
                                       {}}},
                                     {},
                                     {}});
    plan_.instances.push_back({"Tuner", "tuner", "Avionics", "TunerImpl", {}, {"added", 1}});
  }
  Connection& add_connection(const std::string& name, Endpoint user, Endpoint provider) {
    plan_.connections.push_back({name, {user, provider}, {}, {}, {"added", 2}});
    return plan_.connections.back();
  }

  Plan plan_;
  InterfaceCatalog interfaces_;
};

Endpoint ep(const std::string& instance, const std::string& port, PortKind kind) {
  const bool provider = kind == PortKind::Facet || kind == PortKind::EventConsumer;
  return {port, provider, kind, instance, false, {"added", 3}};
}

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

TEST_F(PlanCheck, AcceptsAChannelWithAGatewayAndAFilter) {
  Requirement channel{properties::kEventDelivery, properties::kChannel, {}, {"added", 4}};
  channel.properties.push_back({properties::kGateway, make_value(ValueKind::String, "udp"), {}});
  connection("airframe_ready").deploy_requirements.push_back(channel);
  instance("HUD").config_properties.push_back(
      {std::string(properties::kEventFilterPrefix) + "airframe_ready",
       make_value(ValueKind::String, "disjunction: source=airframe.ready"),
       {"added", 5}});
  EXPECT_EQ(problems(), std::vector<std::string>{});
}

TEST_F(PlanCheck, NamesAnUnknownDeliveryOrGatewayAndADeliveryOfCalls) {
  Requirement unknown{properties::kEventDelivery, "carrier_pigeon", {}, {"added", 4}};
  connection("tick").deploy_requirements.push_back(unknown);
  expect_problem(
      "mwccm.EventDelivery 'carrier_pigeon' is not one mwccm knows (direct, channel, dds, zmq)",
      unknown.where);
  Requirement channel{properties::kEventDelivery, properties::kChannel, {}, {"added", 4}};
  channel.properties.push_back(
      {properties::kGateway, make_value(ValueKind::String, "smoke"), {"added", 6}});
  connection("tick").deploy_requirements.back() = channel;
  expect_problem("gateway 'smoke' is not one mwccm knows (iiop, udp, multicast)",
                 channel.properties[0].where);
  connection("tick").deploy_requirements.clear();
  Requirement on_a_call{properties::kEventDelivery, properties::kChannel, {}, {"added", 7}};
  connection("gps_position").deploy_requirements.push_back(on_a_call);
  expect_problem("is for a connection from an event source to a consumer", on_a_call.where);
}

TEST_F(PlanCheck, AcceptsDdsConnectionsWithTheirTopicsAndQos) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  Requirement dds{properties::kEventDelivery, properties::kDds, {}, {"added", 4}};
  dds.properties.push_back(
      {properties::kTopic, make_value(ValueKind::String, "BasicSP/ready"), {}});
  dds.properties.push_back(
      {properties::kReliability, make_value(ValueKind::String, "best_effort"), {}});
  dds.properties.push_back({properties::kHistoryDepth, make_value(ValueKind::ULong, "16"), {}});
  connection("airframe_ready").deploy_requirements.push_back(dds);
  // The default topic, "gps/ready", is a DDS topic name.
  connection("gps_ready")
      .deploy_requirements.push_back(
          {properties::kEventDelivery, properties::kDds, {}, {"added", 5}});
  instance("HUD").config_properties.push_back(
      {std::string(properties::kEventFilterPrefix) + "airframe_ready",
       make_value(ValueKind::String, "disjunction: source=airframe.ready"),
       {"added", 6}});
  EXPECT_EQ(problems(), std::vector<std::string>{});
}

TEST_F(PlanCheck, NamesABadDdsValueAndAPropertyOfAnotherStrategy) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  Requirement dds{properties::kEventDelivery, properties::kDds, {}, {"added", 4}};
  dds.properties.push_back(
      {properties::kReliability, make_value(ValueKind::String, "sometimes"), {"added", 5}});
  connection("tick").deploy_requirements.push_back(dds);
  expect_problem(
      "connection 'tick': reliability 'sometimes' is not one mwccm knows (reliable, "
      "best_effort)",
      dds.properties[0].where);
  for (const char* depth : {"0", "many", "2000000"}) {
    connection("tick").deploy_requirements.back().properties[0] = {
        properties::kHistoryDepth, make_value(ValueKind::String, depth), {"added", 6}};
    expect_problem("history_depth '" + std::string(depth) + "' is not a depth from 1 to 1000000",
                   {"added", 6});
  }
  connection("tick").deploy_requirements.back().properties[0] = {
      properties::kTopic, make_value(ValueKind::String, "rate_gen.tick"), {"added", 7}};
  expect_problem("connection 'tick': DDS topic 'rate_gen.tick' is not a topic name", dds.where);
  connection("tick").deploy_requirements.back().properties[0] = {
      properties::kGateway, make_value(ValueKind::String, "udp"), {"added", 8}};
  expect_problem("a gateway links channels; this connection is dds", {"added", 8});
  connection("tick").deploy_requirements.back() = {
      properties::kEventDelivery,
      properties::kChannel,
      {{properties::kTopic, make_value(ValueKind::String, "t"), {"added", 9}}},
      {"added", 4}};
  expect_problem("'topic' is a property of a dds connection; this one is channel", {"added", 9});
  connection("tick").deploy_requirements.back().properties[0] = {
      "durability", make_value(ValueKind::String, "transient"), {"added", 10}};
  expect_problem(
      "mwccm.EventDelivery has no property 'durability' (it has: gateway, topic, reliability, "
      "history_depth)",
      {"added", 10});
}

TEST_F(PlanCheck, NamesADdsTopicOfTwoSourcesOrOfTwoQos) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  const auto on = [](const char* topic, const char* reliability) {
    return Requirement{properties::kEventDelivery,
                       properties::kDds,
                       {{properties::kTopic, make_value(ValueKind::String, topic), {}},
                        {properties::kReliability, make_value(ValueKind::String, reliability), {}}},
                       {"added", 4}};
  };
  connection("gps_ready").deploy_requirements.push_back(on("shared", "reliable"));
  connection("airframe_ready").deploy_requirements.push_back(on("shared", "reliable"));
  expect_problem(
      "connection 'airframe_ready': DDS topic 'shared' carries the events of gps.ready already "
      "(connection 'gps_ready'): a topic carries one source's events",
      {"added", 4});
  connection("airframe_ready").deploy_requirements.clear();
  connection("tick").deploy_requirements.push_back(on("gps/ready", "reliable"));
  connection("gps_ready").deploy_requirements.back() = on("gps/ready", "best_effort");
  const auto found = problems();
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& problem) {
    return problem.find("carries the events of") != std::string::npos;
  })) << ::testing::PrintToString(found);
}

TEST_F(PlanCheck, RefusesDdsWhenBuiltWithoutCycloneDds) {
  if (MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm has Cyclone DDS";
  Requirement dds{properties::kEventDelivery, properties::kDds, {}, {"added", 4}};
  connection("tick").deploy_requirements.push_back(dds);
  expect_problem(
      "connection 'tick': mwccm.EventDelivery 'dds': this mwccm was built without Cyclone DDS",
      dds.where);
}

TEST_F(PlanCheck, NamesABadDdsDomain) {
  Property& threads = instance("SensorsServer").config_properties[0];
  threads = {properties::kDdsDomain, make_value(ValueKind::Long, "233"), {"added", 5}};
  expect_problem(
      "configProperty mwccm.Channel.DdsDomain of component server 'sensors' is an integer DDS "
      "domain id from 0 to 232",
      threads.where);
}

TEST_F(PlanCheck, NamesAChannelThatIsAlsoPlainCxx) {
  Connection& ready = connection("gps_ready");
  ready.deploy_requirements.push_back(
      {properties::kConnectionType, properties::kLocalInterface, {}, {}});
  Requirement channel{properties::kEventDelivery, properties::kChannel, {}, {"added", 4}};
  ready.deploy_requirements.push_back(channel);
  const auto found = problems();  // and, as they are in two processes here, plain C++ across them
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& problem) {
    return problem.find(
               "is Local_Interface (plain C++) and delivered through a channel: choose "
               "one") != std::string::npos;
  })) << ::testing::PrintToString(found);
}

TEST_F(PlanCheck, NamesABadFilterOneOnASinkWithoutAChannelAndOneOnNoSink) {
  Property filter{std::string(properties::kEventFilterPrefix) + "airframe_ready",
                  make_value(ValueKind::String, "disjunction: source=airframe.ready"),
                  {"added", 5}};
  instance("HUD").config_properties.push_back(filter);
  expect_problem(
      "a filter applies in a channel, and no connection to 'hud.airframe_ready' is "
      "delivered through one",
      filter.where);
  connection("airframe_ready")
      .deploy_requirements.push_back(
          {properties::kEventDelivery, properties::kChannel, {}, {"added", 4}});
  instance("HUD").config_properties.back().value =
      make_value(ValueKind::String, "sometimes: source=x.y");
  expect_problem("an event filter starts with 'conjunction:' or 'disjunction:'", filter.where);
  instance("HUD").config_properties.back() = {
      std::string(properties::kEventFilterPrefix) + "display",
      make_value(ValueKind::String, "disjunction: type=T"),
      {"added", 5}};
  expect_problem("has no event sink 'display'", filter.where);
}

TEST_F(PlanCheck, NamesAFilterSourceThatNoChannelBringsToItsSink) {
  connection("airframe_ready")
      .deploy_requirements.push_back(
          {properties::kEventDelivery, properties::kChannel, {}, {"added", 4}});
  Property filter{std::string(properties::kEventFilterPrefix) + "airframe_ready",
                  make_value(ValueKind::String, "disjunction: source=gps.ready"),
                  {"added", 5}};
  instance("HUD").config_properties.push_back(filter);
  expect_problem(
      "source 'gps.ready' reaches 'hud.airframe_ready' through no channel connection (those "
      "that do: 'airframe.ready')",
      filter.where);
}

TEST_F(PlanCheck, NamesBothConnectionsOfASinkFedThroughAChannelAndThroughDds) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  connection("airframe_ready")
      .deploy_requirements.push_back(
          {properties::kEventDelivery, properties::kChannel, {}, {"added", 4}});
  Connection from_gps = connection("airframe_ready");
  from_gps.name = "gps_to_hud";
  for (auto& end : from_gps.internal_endpoints) {
    if (end.kind != PortKind::EventConsumer) end.instance_id = "GPS";
  }
  from_gps.deploy_requirements = {{properties::kEventDelivery, properties::kDds, {}, {"added", 9}}};
  plan_.connections.push_back(from_gps);
  expect_problem(
      "connection 'gps_to_hud': delivers through dds into the sink that connection "
      "'airframe_ready' feeds through channel: a sink takes one of them",
      {"added", 9});
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
