// Converting between the formats keeps what a plan means; writing a .cdp and
// reading it back gives the same model, ids and order included.
#include <algorithm>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {
namespace {

class PlanConvert : public ScratchTest {
 protected:
  Plan completed(Plan plan) {
    complete_plan(plan, interfaces_);
    return plan;
  }
  InterfaceCatalog interfaces_ = test_interfaces();
};

TEST_F(PlanConvert, CdpToConfigAndBack) {
  const Plan original = completed(read_cdp(plan_path("basic_sp.cdp")));
  const Plan as_config = completed(read_config(write("plan.config", write_config(original))));
  check_plan(as_config, interfaces_);
  EXPECT_EQ(meaning(as_config), meaning(original));
  const Plan back = completed(read_cdp(write("plan.cdp", write_cdp(as_config))));
  EXPECT_EQ(meaning(back), meaning(original));
}

TEST_F(PlanConvert, ConfigToCdpAndBack) {
  const Plan original = completed(read_config(plan_path("basic_sp.config")));
  const Plan as_cdp = read_cdp(write("plan.cdp", write_cdp(original)));
  check_plan(as_cdp, interfaces_);
  EXPECT_EQ(meaning(as_cdp), meaning(original));
  const Plan back = completed(read_config(write("back.config", write_config(as_cdp))));
  EXPECT_EQ(meaning(back), meaning(original));
}

TEST_F(PlanConvert, WritingACdpKeepsTheModel) {
  const Plan original = read_cdp(plan_path("basic_sp.cdp"));
  const std::string text = write_cdp(original);
  const Plan back = read_cdp(write("plan.cdp", text));
  EXPECT_EQ(write_cdp(back), text);
  ASSERT_EQ(back.instances.size(), original.instances.size());
  for (std::size_t i = 0; i < back.instances.size(); ++i) {
    EXPECT_EQ(back.instances[i].id, original.instances[i].id);
    EXPECT_EQ(back.instances[i].implementation_id, original.instances[i].implementation_id);
  }
  EXPECT_EQ(back.implementations[3].deploy_requirements.at(0).properties.at(0).value.text, "640");
}

TEST_F(PlanConvert, EscapesTextInBothFormats) {
  Plan plan = read_cdp(plan_path("basic_sp.cdp"));
  plan.instances[3].config_properties[0].value.text = "a \"quoted\" <name> & \\ # not a comment";
  const Plan via_cdp = read_cdp(write("escaped.cdp", write_cdp(plan)));
  EXPECT_EQ(via_cdp.instances[3].config_properties[0].value.text,
            plan.instances[3].config_properties[0].value.text);
  const Plan via_config = read_config(write("escaped.config", write_config(plan)));
  EXPECT_EQ(PlanIndex(via_config).instance("hud")->config_properties[0].value.text,
            plan.instances[3].config_properties[0].value.text);
}

TEST_F(PlanConvert, TheConfigIsSeveralTimesShorter) {
  const Plan plan = read_cdp(plan_path("basic_sp.cdp"));
  auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  EXPECT_GT(lines(write_cdp(plan)), 3 * lines(write_config(plan)));
}

TEST_F(PlanConvert, RefusesWhatTheConfigFormatCannotHold) {
  Plan plan = read_cdp(plan_path("basic_sp.cdp"));
  plan.implementations[0].artifact_ids.push_back("BasicSPArtifact");  // two artifacts
  EXPECT_THROW(write_config(plan), PlanError);
}

}  // namespace
}  // namespace mwccm::deployment::testing
