// The D&C XML reader: every element of plans/basic_sp.cdp, and each way a
// file can be wrong, named by its file, line and element.
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

using CdpReader = ReaderTest<read_cdp>;

TEST_F(CdpReader, ReadsEveryElement) {
  const std::string file = plan_path("basic_sp.cdp");
  const Plan plan = read_cdp(file);
  EXPECT_EQ(plan.label, "Basic SP, two processes");
  EXPECT_EQ(plan.uuid, "6f1c2a3e-basic-sp-two-processes");
  EXPECT_EQ(plan.file, file);

  ASSERT_EQ(plan.implementations.size(), 5u);
  const Implementation& rate_gen_impl = plan.implementations[0];
  EXPECT_EQ(rate_gen_impl.id, "RateGenImpl");
  EXPECT_EQ(rate_gen_impl.artifact_ids, std::vector<std::string>{"BasicSPArtifact"});
  ASSERT_EQ(rate_gen_impl.exec_parameters.size(), 1u);
  EXPECT_EQ(rate_gen_impl.exec_parameters[0].name, "mwccm.HomeEntrypoint");
  EXPECT_EQ(rate_gen_impl.exec_parameters[0].value.text, "mwccm_home_BasicSP_RateGenHome");
  EXPECT_EQ(rate_gen_impl.where.line, line_of(file, "<implementation xmi:id=\"RateGenImpl\">"));
  const Requirement& display = plan.implementations[3].deploy_requirements.at(0);
  EXPECT_EQ(display.name, "display");
  EXPECT_EQ(display.resource_type, "Screen");
  EXPECT_EQ(display.properties.at(0).value.kind, ValueKind::UShort);
  EXPECT_EQ(display.properties.at(0).value.text, "640");

  ASSERT_EQ(plan.instances.size(), 5u);
  const Instance& rate_gen = plan.instances[0];
  EXPECT_EQ(rate_gen.id, "RateGen");
  EXPECT_EQ(rate_gen.name, "rate_gen");
  EXPECT_EQ(rate_gen.node, "Avionics");
  EXPECT_EQ(rate_gen.implementation_id, "RateGenImpl");
  EXPECT_EQ(rate_gen.where.line, line_of(file, "<instance xmi:id=\"RateGen\">"));
  ASSERT_EQ(rate_gen.config_properties.size(), 2u);
  EXPECT_EQ(rate_gen.config_properties[0].name, "hertz");
  EXPECT_EQ(rate_gen.config_properties[0].value.kind, ValueKind::ULong);
  EXPECT_EQ(rate_gen.config_properties[0].value.text, "20");
  EXPECT_EQ(plan.instances[3].config_properties[0].value.text,
            "hud & display.log");  // entity decoded

  ASSERT_EQ(plan.connections.size(), 5u);
  const Connection& tick = plan.connections[0];
  EXPECT_EQ(tick.name, "tick");
  ASSERT_EQ(tick.internal_endpoints.size(), 2u);
  EXPECT_EQ(tick.internal_endpoints[0].kind, PortKind::EventPublisher);
  EXPECT_FALSE(tick.internal_endpoints[0].provider);
  EXPECT_EQ(tick.internal_endpoints[1].kind, PortKind::EventConsumer);
  EXPECT_TRUE(tick.internal_endpoints[1].provider);
  EXPECT_EQ(tick.internal_endpoints[1].instance_id, "GPS");
  EXPECT_EQ(plan.connections[2].internal_endpoints[0].kind, PortKind::SimplexReceptacle);
  EXPECT_EQ(plan.connections[4].deploy_requirements.at(0).resource_type, "Local_Interface");

  ASSERT_EQ(plan.artifacts.size(), 1u);
  EXPECT_EQ(plan.artifacts[0].id, "BasicSPArtifact");
  EXPECT_EQ(plan.artifacts[0].location, "libmwccm_basic_sp_module.so");

  ASSERT_EQ(plan.locality_constraints.size(), 3u);
  EXPECT_EQ(plan.locality_constraints[0].kind, LocalityKind::SameProcess);
  EXPECT_EQ(plan.locality_constraints[0].instance_ids,
            (std::vector<std::string>{"SensorsServer", "RateGen", "GPS"}));
  EXPECT_EQ(plan.locality_constraints[2].kind, LocalityKind::DifferentProcess);
  ASSERT_EQ(plan.info_properties.size(), 1u);
  EXPECT_EQ(plan.info_properties[0].value.text, "Basic SP (Subramonian et al.)");
}

TEST_F(CdpReader, ReadsAnExternalReferenceAndEveryValueKind) {
  const std::string file = write("values.cdp", R"(<Deployment:DeploymentPlan
    xmlns:Deployment="http://www.omg.org/Deployment" xmlns:xmi="http://www.omg.org/XMI">
  <label>values</label>
  <instance xmi:id="t"><name>t</name><node>n</node><implementation xmi:idref="i"/>
    <configProperty><name>b</name><value><type><kind>tk_boolean</kind></type><value><boolean>1</boolean></value></value></configProperty>
    <configProperty><name>c</name><value><type><kind>tk_char</kind></type><value><string>x</string></value></value></configProperty>
    <configProperty><name>o</name><value><type><kind>tk_octet</kind></type><value><octet>255</octet></value></value></configProperty>
    <configProperty><name>s</name><value><type><kind>tk_short</kind></type><value><short>-32768</short></value></value></configProperty>
    <configProperty><name>ll</name><value><type><kind>tk_longlong</kind></type><value><longlong>-9223372036854775808</longlong></value></value></configProperty>
    <configProperty><name>ull</name><value><type><kind>tk_ulonglong</kind></type><value><ulonglong>18446744073709551615</ulonglong></value></value></configProperty>
    <configProperty><name>f</name><value><type><kind>tk_float</kind></type><value><float>0.5</float></value></value></configProperty>
    <configProperty><name>d</name><value><type><kind>tk_double</kind></type><value><double>-1e300</double></value></value></configProperty>
    <configProperty><name>e</name><value><type><kind>tk_enum</kind><enum><name>Mode</name><typeId>IDL:Test/Mode:1.0</typeId><member>SLOW</member><member>FAST</member></enum></type><value><enum>FAST</enum></value></value></configProperty>
  </instance>
  <connection><name>out</name>
    <internalEndpoint><portName>listeners</portName><provider>false</provider><kind>MultiplexReceptacle</kind><instance xmi:idref="t"/></internalEndpoint>
    <externalReference><location>corbaname:rir:/NameService#Position</location><provider>true</provider><portName>position</portName></externalReference>
  </connection>
</Deployment:DeploymentPlan>
)");
  const Plan plan = read_cdp(file);
  const auto& properties = plan.instances.at(0).config_properties;
  ASSERT_EQ(properties.size(), 9u);
  EXPECT_EQ(properties[0].value.text, "true");
  EXPECT_EQ(properties[1].value.kind, ValueKind::Char);  // D&C writes a char as <string>
  EXPECT_EQ(properties[1].value.text, "x");
  EXPECT_EQ(properties[2].value.text, "255");
  EXPECT_EQ(properties[3].value.text, "-32768");
  EXPECT_EQ(properties[5].value.text, "18446744073709551615");
  EXPECT_EQ(properties[8].value.kind, ValueKind::Enum);
  EXPECT_EQ(properties[8].value.enum_type_id, "IDL:Test/Mode:1.0");
  EXPECT_EQ(properties[8].value.enum_members, (std::vector<std::string>{"SLOW", "FAST"}));
  const ExternalReference& external = plan.connections.at(0).external_references.at(0);
  EXPECT_EQ(external.location, "corbaname:rir:/NameService#Position");
  EXPECT_EQ(external.port_name, "position");
  EXPECT_TRUE(external.provider);
}

struct BrokenPlan {
  const char* name;
  const char* from;    // text of plans/basic_sp.cdp ...
  const char* to;      // ... replaced by this
  const char* marker;  // the error is on the line of this text in the broken file ("" : line 0)
  const char* part;    // and its message holds this
};

class CdpReaderErrors : public CdpReader, public ::testing::WithParamInterface<BrokenPlan> {};

TEST_P(CdpReaderErrors, NameTheFileLineAndElement) {
  const BrokenPlan& broken = GetParam();
  const std::string file =
      mutate("basic_sp.cdp", std::string(broken.name) + ".cdp", broken.from, broken.to);
  const int line = *broken.marker == '\0' ? 0 : line_of(file, broken.marker);
  expect_error(file, line, broken.part);
}

INSTANTIATE_TEST_SUITE_P(
    EachError, CdpReaderErrors,
    ::testing::Values(
        BrokenPlan{"unknown_element", "<name>gps</name>", "<nmae>gps</nmae>", "<nmae>",
                   "<instance> has no element <nmae> (it holds name, node, implementation, "
                   "configProperty)"},
        BrokenPlan{"missing_node",
                   "<node>Avionics</node>\n    <implementation xmi:idref=\"GPSImpl\"/>",
                   "<implementation xmi:idref=\"GPSImpl\"/>", "<instance xmi:id=\"GPS\">",
                   "<instance> has no <node>"},
        BrokenPlan{
            "second_node", "<node>Avionics</node>\n    <implementation xmi:idref=\"GPSImpl\"/>",
            "<node>Avionics</node><node>B</node>\n    <implementation xmi:idref=\"GPSImpl\"/>",
            "<node>B</node>", "<instance> has a second <node>"},
        BrokenPlan{"unknown_kind", "<kind>tk_ulong</kind></type><value><ulong>20",
                   "<kind>tk_wstring</kind></type><value><ulong>20", "tk_wstring",
                   "<kind> tk_wstring is not a kind mwccm reads"},
        BrokenPlan{"out_of_range", "<ulong>20</ulong>", "<ulong>-1</ulong>", "<ulong>-1",
                   "an integer from 0 to 4294967295, not '-1'"},
        BrokenPlan{"wrong_value_element", "<ulong>20</ulong>", "<long>20</long>", "<long>20",
                   "a tk_ulong value is written <ulong>, not <long>"},
        BrokenPlan{"not_a_boolean", "<provider>true</provider>", "<provider>maybe</provider>",
                   "maybe", "<provider> is true or false, not 'maybe'"},
        BrokenPlan{"unknown_port_kind", "<kind>EventPublisher</kind>", "<kind>Publisher</kind>",
                   "<kind>Publisher", "<kind> Publisher is not a port kind"},
        BrokenPlan{"unknown_constraint", "<constraint>DifferentProcess</constraint>",
                   "<constraint>Apart</constraint>", "<constraint>Apart",
                   "<constraint> Apart is not SameProcess, DifferentProcess or NoConstraint"},
        BrokenPlan{"no_idref", "<implementation xmi:idref=\"GPSImpl\"/>", "<implementation/>",
                   "<implementation/>", "<implementation> has no xmi:idref"},
        BrokenPlan{"no_id", "<instance xmi:id=\"GPS\">", "<instance>", "<instance>\n    <name>gps",
                   "<instance> has no xmi:id"},
        BrokenPlan{"text_with_element", "<name>gps</name>", "<name>g<b/>ps</name>", "<name>g<b/>",
                   "<name> holds text, not the element <b>"},
        BrokenPlan{"not_well_formed", "<name>gps</name>", "<name>gps</nam>", "<name>gps</nam>",
                   "not well-formed XML: Opening and ending tag mismatch: name"},
        BrokenPlan{
            "document_type", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ENTITY lol1 "
            "\"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
            " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
            " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
            " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
            " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
            " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
            " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
            " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
            " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n]>",
            "<!DOCTYPE", "a document type declaration (DOCTYPE) is not allowed in a plan"},
        BrokenPlan{"external_entity", "<label>Basic SP, two processes</label>",
                   "<label>&xxe;</label>", "&xxe;", "not well-formed XML"}),
    [](const ::testing::TestParamInfo<BrokenPlan>& info) { return info.param.name; });

TEST_F(CdpReader, RefusesAnotherRoot) {
  expect_error(
      write("root.cdp", "<?xml version=\"1.0\"?>\n<Deployment:Plan xmlns:Deployment=\"x\"/>\n"), 2,
      "the root element is <Plan>, not <Deployment:DeploymentPlan>");
}

TEST_F(CdpReader, RefusesAFileThatIsNotThere) {
  expect_error(scratch_ + "/absent.cdp", 0, "cannot read the file");
}

TEST_F(CdpReader, RefusesADirectory) { expect_error(scratch_, 0, "not a regular file"); }

TEST_F(CdpReader, RefusesBinaryData) {  // before libxml2 sees it: a plan is UTF-8 text
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7919) % 256);
  expect_error(write("random.cdp", bytes), 1, "a NUL byte: the file must be UTF-8 text");
}

TEST_F(CdpReader, ChoosesTheFormatByTheSuffix) {
  EXPECT_EQ(read_plan(plan_path("basic_sp.cdp")).instances.size(), 5u);
  EXPECT_EQ(read_plan(plan_path("basic_sp.config")).instances.size(), 5u);
  EXPECT_THROW(read_plan(write("plan.txt", "")), PlanError);
}

}  // namespace
}  // namespace mwccm::deployment::testing
