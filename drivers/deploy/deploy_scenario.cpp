// Plans by name (deploy_scenario.hpp): the build's own static plans, where
// the build put their files, compiled programs and artifacts
// (deploy_build.hpp, written by CMake).
#include "deploy_scenario.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>

#include "deploy_build.hpp"

namespace deploy {
namespace {

namespace fs = std::filesystem;

// By name, for lookup and for the sorted list of names.
const std::map<std::string, const build::Plan*>& known_plans() {
  static const std::map<std::string, const build::Plan*> plans = [] {
    std::map<std::string, const build::Plan*> by_name;
    for (const build::Plan& plan : build::kPlans) by_name.emplace(plan.name, &plan);
    return by_name;
  }();
  return plans;
}

}  // namespace

std::string plan_names() {
  std::string names = kPlainChain;
  for (const auto& [name, plan] : known_plans()) names += ", " + name;
  return names;
}

namespace {

unsigned hertz_of(const mwbench::DriverOptions& options) {
  const std::string text = options.option("hertz", "1000");
  char* end = nullptr;
  const unsigned long hertz = std::strtoul(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || hertz < 1 || hertz > 100'000)
    throw mwbench::UsageError("--option hertz=" + text + ": ticks per second, 1 to 100000");
  return static_cast<unsigned>(hertz);
}

}  // namespace

Scenario scenario_of(const mwbench::DriverOptions& options) {
  Scenario scenario;
  const std::string assembly = options.option("assembly", "dynamic");
  if (assembly != "static" && assembly != "dynamic") {
    throw mwbench::UsageError("--option assembly=" + assembly + ": use static or dynamic");
  }
  scenario.assembly = assembly == "static" ? Assembly::Static : Assembly::Dynamic;
  scenario.name = options.option("plan", "basic_sp_one_process");
  scenario.hertz = hertz_of(options);
  scenario.address = options.bind_address;
  const auto known = known_plans().find(scenario.name);
  if (scenario.name == kPlainChain) {
    if (!options.option("nodes", "").empty())
      throw mwbench::UsageError("--option nodes: the plain chain has no plan, so no nodes");
    scenario.plain_chain = true;
    scenario.program = build::kPlainChain;
    return scenario;
  }
  if (known != known_plans().end()) {
    scenario.plan = known->second->file;
    scenario.program = known->second->program;
    scenario.artifacts.push_back(known->second->artifacts);
  } else if (std::error_code unreadable; fs::is_regular_file(scenario.name, unreadable)) {
    scenario.plan = fs::absolute(scenario.name).string();
  } else {
    throw mwbench::UsageError("--option plan=" + scenario.name +
                              ": neither a plan file nor one of " + plan_names());
  }
  scenario.program = options.option("program", scenario.program);
  if (!scenario.program.empty()) scenario.program = fs::absolute(scenario.program).string();
  // Absolute: the programs the driver starts run in a scratch directory.
  const std::string artifacts = options.option("artifacts", "");
  std::error_code unreadable;  // a name too long, a directory not searchable: not a directory
  if (!artifacts.empty() && !fs::is_directory(artifacts, unreadable))
    throw mwbench::UsageError("--option artifacts=" + artifacts + ": not a directory");
  if (!artifacts.empty()) scenario.artifacts = {fs::absolute(artifacts).string()};
  if (scenario.artifacts.empty()) {
    throw mwbench::UsageError("--option plan=" + scenario.name +
                              " is a file: give --option artifacts=DIR too");
  }
  scenario.node_map = options.option("nodes", "");
  if (!scenario.node_map.empty()) scenario.node_map = fs::absolute(scenario.node_map).string();
  if (!scenario.node_map.empty() && scenario.assembly == Assembly::Static) {
    throw mwbench::UsageError("--option nodes=" + scenario.node_map + ": static assembly runs " +
                              "the compiled plan in one program, on no node; nodes need " +
                              "--option assembly=dynamic");
  }
  if (std::error_code unreadable;
      scenario.assembly == Assembly::Static && !fs::is_regular_file(scenario.program, unreadable)) {
    throw mwbench::UsageError("static assembly of '" + scenario.name + "' needs its compiled " +
                              "program (--option program=PATH; mwccm-plan-compile makes it): '" +
                              scenario.program + "' is not there");
  }
  return scenario;
}

}  // namespace deploy
