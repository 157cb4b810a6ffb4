// The DnCX11 .config reader: plans/basic_sp.config means what
// plans/basic_sp.cdp means; literals of every type; each error with its line.
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

class ConfigReader : public ReaderTest<read_config> {
 protected:
  const Property& only_property(const std::string& value) {
    plan_ = read_config(write("value.config",
                              "nl.remedy.it.CCM.Component t lib f\n"
                              "  nl.remedy.it.DnCX11.Node \"n\"\n"
                              "  nl.remedy.it.DnCX11.ConfigProperty p " +
                                  value + "\n"));
    return plan_.instances.at(0).config_properties.at(0);
  }
  Plan plan_;
};

TEST_F(ConfigReader, MeansWhatTheXmlPlanMeans) {
  const InterfaceCatalog interfaces = test_interfaces();
  Plan from_config = read_config(plan_path("basic_sp.config"));
  Plan from_cdp = read_cdp(plan_path("basic_sp.cdp"));
  complete_plan(from_config, interfaces);
  complete_plan(from_cdp, interfaces);
  check_plan(from_config, interfaces);
  EXPECT_EQ(meaning(from_config), meaning(from_cdp));
}

TEST_F(ConfigReader, DerivesImplementationsArtifactsAndLocalities) {
  const std::string file = plan_path("basic_sp.config");
  const Plan plan = read_config(file);
  const PlanIndex index(plan);
  // One implementation per artifact and entry point, shared by instances.
  const Implementation* gps = index.implementation("BasicSP.mwccm_home_BasicSP_GPSHome");
  ASSERT_NE(gps, nullptr);
  EXPECT_EQ(gps->artifact_ids, std::vector<std::string>{"BasicSP"});
  ASSERT_NE(index.artifact("BasicSP"), nullptr);
  EXPECT_EQ(index.artifact("BasicSP")->location, "libmwccm_basic_sp_module.so");
  const Instance* hud = index.instance("hud");
  ASSERT_NE(hud, nullptr);
  EXPECT_EQ(hud->where.line, line_of(file, "nl.remedy.it.CCM.Component hud"));
  // "airframe < position": a receptacle whose kind the interface gives.
  const Connection& uses = plan.connections.at(2);
  EXPECT_EQ(uses.name, "airframe.gps:gps.position");
  EXPECT_TRUE(uses.internal_endpoints[0].kind_implied);
  EXPECT_EQ(uses.internal_endpoints[1].kind, PortKind::Facet);
  // One SameProcess per locality, one DifferentProcess over them.
  ASSERT_EQ(plan.locality_constraints.size(), 3u);
  EXPECT_EQ(plan.locality_constraints[2].kind, LocalityKind::DifferentProcess);
  EXPECT_EQ(plan.label, "Basic SP, two processes");
}

TEST_F(ConfigReader, ReadsLiteralsOfEveryType) {
  EXPECT_EQ(only_property("42").value.kind, ValueKind::LongLong);  // as DnCX11 reads it
  EXPECT_EQ(only_property("-42").value.text, "-42");
  EXPECT_EQ(only_property("18446744073709551615").value.kind, ValueKind::ULongLong);
  EXPECT_EQ(only_property("0x1F").value.kind, ValueKind::ULongLong);
  EXPECT_EQ(only_property("0x1F").value.text, "31");
  EXPECT_EQ(only_property("1.5").value.kind, ValueKind::Double);
  EXPECT_EQ(only_property("true").value.kind, ValueKind::Boolean);
  EXPECT_EQ(only_property("'c'").value.kind, ValueKind::Char);
  EXPECT_EQ(only_property("\"a \\\"quoted\\\" # not a comment\"").value.text,
            "a \"quoted\" # not a comment");
  EXPECT_EQ(only_property("int16:-7").value.kind, ValueKind::Short);
  EXPECT_EQ(only_property("uint64:18446744073709551615").value.kind, ValueKind::ULongLong);
  EXPECT_EQ(only_property("octet:0x10").value.text, "16");
  EXPECT_EQ(only_property("bool:false").value.text, "false");
  EXPECT_EQ(only_property("float:0.25").value.kind, ValueKind::Float);
  EXPECT_EQ(only_property("string:\"s\"").value.text, "s");
  EXPECT_EQ(only_property("char:'x'").value.text, "x");
  const Property& mode = only_property("enum:FAST");
  EXPECT_EQ(mode.value.kind, ValueKind::Enum);
  EXPECT_TRUE(mode.value.enum_type_id.empty());  // given by the interface: complete_plan
}

TEST_F(ConfigReader, ReadsDancesAndDncx11sPropertyNames) {
  const Plan plan =
      read_config(write("aliases.config",
                        "nl.remedy.it.DnCX11.LocalityManager lm\n"
                        "  nl.remedy.it.DnCX11.Node \"n\"\n"
                        "  nl.remedy.it.DnCX11.ConfigProperty "
                        "nl.remedy.it.DnCX11.LocalityManager.ProcessPriority int32:10\n"
                        "nl.remedy.it.CCM.Component c lib f\n"
                        "  nl.remedy.it.DnCX11.Node \"n\"\n"
                        "  nl.remedy.it.DnCX11.ConfigProperty "
                        "edu.vanderbilt.dre.DAnCE.InstanceIOR \"c.ior\"\n"));
  EXPECT_EQ(plan.instances.at(0).config_properties.at(0).name, "mwccm.Process.Priority");
  EXPECT_EQ(plan.instances.at(1).config_properties.at(0).name, "mwccm.InstanceIOR");
}

TEST_F(ConfigReader, TakesAnEnumsTypeFromTheInterface) {
  Plan plan = read_config(write("tuner.config",
                                "nl.remedy.it.CCM.Component tuner lib mwccm_home_Test_TunerHome\n"
                                "  nl.remedy.it.DnCX11.Node \"n\"\n"
                                "  nl.remedy.it.DnCX11.ConfigProperty mode enum:FAST\n"));
  const InterfaceCatalog interfaces = test_interfaces();
  complete_plan(plan, interfaces);
  const TypedValue& mode = plan.instances.at(0).config_properties.at(0).value;
  EXPECT_EQ(mode.enum_type_id, "IDL:Test/Mode:1.0");
  EXPECT_EQ(mode.enum_members, (std::vector<std::string>{"SLOW", "FAST"}));
  check_plan(plan, interfaces);
}

struct BrokenConfig {
  const char* name;
  const char* text;
  int line;
  const char* part;
};

class ConfigReaderErrors : public ConfigReader,
                           public ::testing::WithParamInterface<BrokenConfig> {};

TEST_P(ConfigReaderErrors, NameTheLine) {
  expect_error(write(std::string(GetParam().name) + ".config", GetParam().text), GetParam().line,
               GetParam().part);
}

const BrokenConfig kBrokenConfigs[] = {
    BrokenConfig{"unclosed_string",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\n\n", 2,
                 "a string that starts here is not closed"},
    BrokenConfig{"array",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.ConfigProperty p [1, 2]\n",
                 3, "array values"},
    BrokenConfig{"unknown_top_key", "nl.remedy.it.DnCX11.InstanceHandler x y z\n", 1,
                 "nl.remedy.it.DnCX11.InstanceHandler is not read by mwccm"},
    BrokenConfig{"not_a_key", "component a lib f\n", 1, "expected a declaration such as"},
    BrokenConfig{"no_node",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Locality \"l\"\n", 2,
                 "instance 'a' has no nl.remedy.it.DnCX11.Node"},
    BrokenConfig{"unknown_type",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.ConfigProperty p int8:4\n",
                 3, "'int8' is not a type"},
    BrokenConfig{"out_of_range",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.ConfigProperty p int16:70000\n",
                 3, "the value of p must be an integer from -32768 to 32767"},
    BrokenConfig{"not_a_literal",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.ConfigProperty p twelve\n",
                 3, "not 'twelve'"},
    BrokenConfig{"bad_link",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.Connection b\n    out -> in\n",
                 4, "expected <, >, => or <= between 'out' and 'in', not '->'"},
    BrokenConfig{"unknown_nested_key",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.Container c\n",
                 3, "nl.remedy.it.DnCX11.Container is not read by mwccm inside a component"},
    BrokenConfig{"truncated", "nl.remedy.it.CCM.Component a lib\n", 1,
                 "the file ends where the home entry point of 'a' was expected"},
    BrokenConfig{"node_not_quoted",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node n\n", 2,
                 "expected the node of 'a' as a \"string\""},
    BrokenConfig{"connection_property",
                 "nl.remedy.it.CCM.Component a lib f\n  nl.remedy.it.DnCX11.Node \"n\"\n"
                 "  nl.remedy.it.DnCX11.Connection b\n    out < in\n"
                 "    nl.remedy.it.DnCX11.Property qos \"fast\"\n",
                 5, "a connection property mwccm reads is mwccm.ConnectionType"}};

INSTANTIATE_TEST_SUITE_P(EachError, ConfigReaderErrors, ::testing::ValuesIn(kBrokenConfigs),
                         [](const ::testing::TestParamInfo<BrokenConfig>& info) {
                           return info.param.name;
                         });

TEST_F(ConfigReader, RefusesBinaryData) {
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7919) % 256);
  EXPECT_THROW(read_config(write("random.config", bytes)), PlanError);
}

}  // namespace
}  // namespace mwccm::deployment::testing
