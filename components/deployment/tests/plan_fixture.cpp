#include "plan_fixture.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <set>
#include <sstream>

namespace mwccm::deployment::testing {
namespace fs = std::filesystem;

std::string plans_dir() { return MWCCM_PLANS_DIR; }
std::string plan_path(const std::string& name) { return plans_dir() + "/" + name; }

InterfaceCatalog test_interfaces() {
  InterfaceCatalog catalog;
  catalog.add_directory(plans_dir() + "/interfaces");
  return catalog;
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int line_of(const std::string& file, const std::string& text) {
  const std::string content = read_text(file);
  const auto at = content.find(text);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(content.begin(), content.begin() + at, '\n'));
}

void ScratchTest::SetUp() {
  std::string pattern = (fs::temp_directory_path() / "mwccm-plan-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  scratch_ = pattern;
}

void ScratchTest::TearDown() { fs::remove_all(scratch_); }

std::string ScratchTest::write(const std::string& name, const std::string& text) const {
  const std::string path = scratch_ + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string ScratchTest::mutate(const std::string& fixture, const std::string& name,
                                const std::string& from, const std::string& to) const {
  std::string text = read_text(plan_path(fixture));
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in " << fixture;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return write(name, text);
}

std::string chain_plan(std::size_t instances) {
  std::string text = "nl.remedy.it.DnCX11.Property mwccm.Label \"a chain\"\n";
  for (std::size_t i = 0; i < instances; ++i) {
    const std::string server = std::to_string(i / 100);
    text += "nl.remedy.it.CCM.Component a" + std::to_string(i) +
            " BasicSP mwccm_home_BasicSP_AirframeHome\n"
            "  nl.remedy.it.DnCX11.Node \"node_" +
            std::to_string(i / 100 % 2) +
            "\"\n"
            "  nl.remedy.it.DnCX11.Locality \"server_" +
            server + "\"\n";
    if (i + 1 < instances)
      text +=
          "  nl.remedy.it.DnCX11.Connection a" + std::to_string(i + 1) + "\n    gps < position\n";
  }
  return text;
}

namespace {

std::string value(const TypedValue& v) { return tk_name(v.kind) + " " + v.text; }

std::string instance_name(const PlanIndex& plan, const std::string& id) {
  const Instance* instance = plan.instance(id);
  return instance == nullptr ? "?" + id : instance->name;
}

}  // namespace

std::string meaning(const Plan& plan) {
  const PlanIndex index(plan);
  std::set<std::string> facts;
  facts.insert("label " + plan.label);
  facts.insert("uuid " + plan.uuid);
  for (const auto& info : plan.info_properties)
    facts.insert("info " + info.name + " = " + value(info.value));
  for (const auto& instance : plan.instances) {
    const Implementation* implementation = index.implementation(instance.implementation_id);
    std::string made_by = "no implementation";
    if (implementation != nullptr) {
      made_by.clear();
      for (const auto& parameter : implementation->exec_parameters) {
        made_by += parameter.name + "=" + parameter.value.text + " ";
      }
      for (const auto& id : implementation->artifact_ids) {
        const Artifact* artifact = index.artifact(id);
        made_by += "artifact " + (artifact ? artifact->location : "?" + id) + " ";
      }
    }
    facts.insert("instance " + instance.name + " on " + instance.node + ": " + made_by);
    for (const auto& property : instance.config_properties) {
      facts.insert("config " + instance.name + "." + property.name + " = " + value(property.value));
    }
  }
  for (const auto& connection : plan.connections) {
    std::vector<std::string> ends;
    for (const auto& e : connection.internal_endpoints) {
      ends.push_back(instance_name(index, e.instance_id) + "." + e.port_name + " " +
                     port_kind_name(e.kind) + (e.provider ? " provider" : ""));
    }
    for (const auto& e : connection.external_references)
      ends.push_back("external " + e.location + " " + e.port_name);
    std::sort(ends.begin(), ends.end());
    std::string fact = "connection";
    for (const auto& end : ends) fact += " [" + end + "]";
    for (const auto& r : connection.deploy_requirements)
      fact += " requires " + r.name + "=" + r.resource_type;
    facts.insert(fact);
  }
  for (const auto& locality : split_by_locality(plan)) {
    std::set<std::string> members;
    for (const Instance* instance : locality.components) members.insert(instance->name);
    std::string fact = "process on " + locality.node +
                       (locality.server ? " configured by " + locality.server->name : "") + ":";
    for (const auto& m : members) fact += " " + m;
    facts.insert(fact);
  }
  std::ostringstream out;
  for (const auto& fact : facts) out << fact << '\n';
  return out.str();
}

PlanProblem only_problem(const std::function<void()>& step) {
  try {
    step();
  } catch (const PlanError& error) {
    EXPECT_EQ(error.problems().size(), 1u) << error.what();
    return error.problems().front();
  }
  ADD_FAILURE() << "nothing was refused";
  return {};
}

void expect_refusal(const std::function<void()>& read, const std::string& file, int line,
                    const std::string& part) {
  const PlanProblem problem = only_problem(read);
  EXPECT_EQ(problem.where.file, file) << problem.to_string();
  EXPECT_EQ(problem.where.line, line) << problem.to_string();
  EXPECT_NE(problem.message.find(part), std::string::npos) << problem.to_string();
}

}  // namespace mwccm::deployment::testing
