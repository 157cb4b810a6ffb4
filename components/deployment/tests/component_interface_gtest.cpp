// Component interface descriptions as mwccm-gen writes them (its golden
// output for the Sender description) read back: ports, attributes, homes.
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/plan_error.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

TEST(ComponentInterface, ReadsWhatTheGeneratorWrites) {
  const ComponentInterface sender =
      read_component_interface(std::string(MWCCM_GOLDEN_DIR) + "/Bench_Sender.ccd");
  EXPECT_EQ(sender.label, "Bench::Sender");
  EXPECT_EQ(sender.specific_type, "IDL:Bench/Sender:1.0");
  EXPECT_EQ(sender.port_names(),
            "control (Facet), peer (SimplexReceptacle), peers (MultiplexReceptacle), ticks "
            "(EventPublisher), "
            "samples (EventEmitter), echoes (EventConsumer)");
  const PortDescription* echoes = sender.find_port("echoes");
  ASSERT_NE(echoes, nullptr);
  EXPECT_EQ(echoes->specific_type, "IDL:Bench/Tick:1.0");
  const AttributeDescription* speed = sender.find_attribute("speed");
  ASSERT_NE(speed, nullptr);
  EXPECT_EQ(speed->kind, ValueKind::Enum);
  EXPECT_EQ(speed->enum_type_id, "IDL:Bench/Pace:1.0");
  EXPECT_EQ(speed->enum_members, (std::vector<std::string>{"SLOW", "STEADY", "FAST"}));
  EXPECT_NE(sender.find_attribute("label"), nullptr);
  EXPECT_EQ(sender.find_attribute("state"), nullptr);  // read-only: not configurable
  EXPECT_EQ(sender.home_entrypoints, std::vector<std::string>{"mwccm_home_Bench_SenderHome"});
}

TEST(ComponentInterface, TheCatalogFindsAComponentByItsHome) {
  const InterfaceCatalog catalog = test_interfaces();
  ASSERT_NE(catalog.find_by_entrypoint("mwccm_home_BasicSP_GPSHome"), nullptr);
  EXPECT_EQ(catalog.find_by_entrypoint("mwccm_home_BasicSP_GPSHome")->label, "BasicSP::GPS");
  EXPECT_EQ(catalog.find_by_entrypoint("mwccm_home_Nothing"), nullptr);
}

TEST(ComponentInterface, NamesAMalformedDescription) {
  EXPECT_THROW(read_component_interface(plan_path("basic_sp.cdp")), PlanError);  // another root
}

}  // namespace
}  // namespace mwccm::deployment::testing
