// The plan checker's rules of event delivery (event_delivery_check.hpp):
// channels and their gateways, DDS topics and QoS, consumers' filters, each
// broken in a copy of plans/basic_sp.cdp.
#include <algorithm>

#include "plan_check_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

// The HUD's filter on its airframe_ready sink, written on line `line`.
Property airframe_ready_filter(int line) {
  return {std::string(properties::kEventFilterPrefix) + "airframe_ready",
          make_value(ValueKind::String, "disjunction: source=airframe.ready"),
          {"added", line}};
}

TEST_F(PlanCheck, AcceptsAChannelWithAGatewayAndAFilter) {
  Requirement channel{properties::kEventDelivery, "channel", {}, {"added", 4}};
  channel.properties.push_back({properties::kGateway, make_value(ValueKind::String, "udp"), {}});
  connection("airframe_ready").deploy_requirements.push_back(channel);
  instance("HUD").config_properties.push_back(airframe_ready_filter(5));
  EXPECT_EQ(problems(), std::vector<std::string>{});
}

TEST_F(PlanCheck, NamesAnUnknownDeliveryOrGatewayAndADeliveryOfCalls) {
  Requirement unknown{properties::kEventDelivery, "carrier_pigeon", {}, {"added", 4}};
  connection("tick").deploy_requirements.push_back(unknown);
  expect_problem(
      "mwccm.EventDelivery 'carrier_pigeon' is not one mwccm knows (channel, dds, direct, zmq)",
      unknown.where);
  Requirement channel{properties::kEventDelivery, "channel", {}, {"added", 4}};
  channel.properties.push_back(
      {properties::kGateway, make_value(ValueKind::String, "smoke"), {"added", 6}});
  connection("tick").deploy_requirements.back() = channel;
  expect_problem("gateway 'smoke' is not one mwccm knows (iiop, udp, multicast)",
                 channel.properties[0].where);
  connection("tick").deploy_requirements.clear();
  Requirement on_a_call{properties::kEventDelivery, "channel", {}, {"added", 7}};
  connection("gps_position").deploy_requirements.push_back(on_a_call);
  expect_problem("is for a connection from an event source to a consumer", on_a_call.where);
}

TEST_F(PlanCheck, AcceptsDdsConnectionsWithTheirTopicsAndQos) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  Requirement dds{properties::kEventDelivery, "dds", {}, {"added", 4}};
  dds.properties.push_back(
      {properties::kTopic, make_value(ValueKind::String, "BasicSP/ready"), {}});
  dds.properties.push_back(
      {properties::kReliability, make_value(ValueKind::String, "best_effort"), {}});
  dds.properties.push_back({properties::kHistoryDepth, make_value(ValueKind::ULong, "16"), {}});
  connection("airframe_ready").deploy_requirements.push_back(dds);
  // The default topic, "gps/ready", is a DDS topic name.
  connection("gps_ready")
      .deploy_requirements.push_back({properties::kEventDelivery, "dds", {}, {"added", 5}});
  instance("HUD").config_properties.push_back(airframe_ready_filter(6));
  EXPECT_EQ(problems(), std::vector<std::string>{});
}

TEST_F(PlanCheck, NamesABadDdsValueAndAPropertyOfAnotherStrategy) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  Requirement dds{properties::kEventDelivery, "dds", {}, {"added", 4}};
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
  expect_problem("'gateway' is a property of a channel connection; this one is dds", {"added", 8});
  connection("tick").deploy_requirements.back() = {
      properties::kEventDelivery,
      "channel",
      {{properties::kTopic, make_value(ValueKind::String, "t"), {"added", 9}}},
      {"added", 4}};
  expect_problem("'topic' is a property of a dds connection; this one is channel", {"added", 9});
  connection("tick").deploy_requirements.back().properties[0] = {
      "durability", make_value(ValueKind::String, "transient"), {"added", 10}};
  expect_problem("mwccm.EventDelivery 'channel' has no property 'durability' (it has: gateway)",
                 {"added", 10});
}

TEST_F(PlanCheck, NamesADdsTopicOfTwoSourcesOrOfTwoQos) {
  if (!MWCCM_WITH_DDS) GTEST_SKIP() << "this mwccm was built without Cyclone DDS";
  const auto on = [](const char* topic, const char* reliability) {
    return Requirement{properties::kEventDelivery,
                       "dds",
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
  Requirement dds{properties::kEventDelivery, "dds", {}, {"added", 4}};
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
  Requirement channel{properties::kEventDelivery, "channel", {}, {"added", 4}};
  ready.deploy_requirements.push_back(channel);
  const auto found = problems();  // and, as they are in two processes here, plain C++ across them
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& problem) {
    return problem.find(
               "is Local_Interface (plain C++) and delivered through a channel: choose "
               "one") != std::string::npos;
  })) << ::testing::PrintToString(found);
}

TEST_F(PlanCheck, NamesABadFilterOneOnASinkWithoutAChannelAndOneOnNoSink) {
  const Property filter = airframe_ready_filter(5);
  instance("HUD").config_properties.push_back(filter);
  expect_problem(
      "a filter applies in a channel, and no connection to 'hud.airframe_ready' is "
      "delivered through one",
      filter.where);
  connection("airframe_ready")
      .deploy_requirements.push_back({properties::kEventDelivery, "channel", {}, {"added", 4}});
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
      .deploy_requirements.push_back({properties::kEventDelivery, "channel", {}, {"added", 4}});
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
      .deploy_requirements.push_back({properties::kEventDelivery, "channel", {}, {"added", 4}});
  Connection from_gps = connection("airframe_ready");
  from_gps.name = "gps_to_hud";
  for (auto& end : from_gps.internal_endpoints) {
    if (end.kind != PortKind::EventConsumer) end.instance_id = "GPS";
  }
  from_gps.deploy_requirements = {{properties::kEventDelivery, "dds", {}, {"added", 9}}};
  plan_.connections.push_back(from_gps);
  expect_problem(
      "connection 'gps_to_hud': delivers through dds into the sink that connection "
      "'airframe_ready' feeds through channel: a sink takes one of them",
      {"added", 9});
}

}  // namespace
}  // namespace mwccm::deployment::testing
