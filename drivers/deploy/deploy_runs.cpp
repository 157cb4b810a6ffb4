// Assemblies and teardowns in both modes (deploy_runs.hpp).
#include "deploy_runs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mwccm/deployment/child_process.hpp>
#include <mwccm/deployment/launcher.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/started_callback.hpp>
#include <mwccm/deployment/step_timer.hpp>
#include <set>

#include "deploy_build.hpp"
#include "deploy_footprint.hpp"
#include "deploy_process.hpp"
#include "mwbench/driver.hpp"

namespace deploy {
namespace {

namespace fs = std::filesystem;
using namespace mwccm::deployment;

constexpr std::chrono::seconds kStartTimeout{60};

// A plan the reader or the check refuses is an input error, exit 2, as from
// mwccm-deploy: every problem on a line of its own, each with file and line.
template <typename Step>
auto plan_errors_are_usage_errors(Step step) {
  try {
    return step();
  } catch (const PlanError& error) {
    throw mwbench::UsageError("--option plan: the plan is refused:\n" + std::string(error.what()));
  }
}

// The steps of one assembly (docs/deployment.md section 8): the whole, then
// the parts each mode times. Segments follow the step they divide.
const Step kTotal{"total", ""};
const Step kTeardown{"teardown", ""};
const std::vector<Step> kAssemblySteps{{"server_creation", "total"},
                                       {"container_creation", "total"},
                                       {"home_creation", "total"},
                                       {"component_creation", "total"},
                                       {"configuration", "total"},
                                       {"registration", "total"},
                                       {"registration_reference", "registration"},
                                       {"registration_stringify", "registration"},
                                       {"registration_publish", "registration"},
                                       {"connection", "total"},
                                       {"activation", "total"}};

// total, the mode's own steps, the steps both modes time, teardown.
std::vector<Step> steps_with(std::vector<Step> own) {
  std::vector<Step> steps{kTotal};
  steps.insert(steps.end(), own.begin(), own.end());
  steps.insert(steps.end(), kAssemblySteps.begin(), kAssemblySteps.end());
  steps.push_back(kTeardown);
  return steps;
}

StepTotals totals_of(const MwccmDeployment::Timings& timings) {
  StepTotals totals;
  for (CORBA::ULong i = 0; i < timings.length(); ++i)
    totals[timings[i].step.in()] += timings[i].end_ns - timings[i].begin_ns;
  return totals;
}

StepTotals totals_of_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("no timings in '" + file.string() + "'");
  return nlohmann::json::parse(in).at("total_ns_per_step").get<StepTotals>();
}

// The compiled plan's program: a process per assembly, as a user starts it.
class StaticDeployments final : public Deployments {
 public:
  StaticDeployments(const Scenario& scenario, std::string scratch)
      : program_(scenario.program),
        scratch_(std::move(scratch)),
        options_{"--endpoint", scenario.endpoint()} {
    for (const auto& value : scenario.overrides) options_.insert(options_.end(), {"--set", value});
  }

  // The ORB the program runs on is made before the assembly starts: a step
  // of its own, not a part of `total` (static_main.cpp says why).
  std::vector<Step> steps() const override {
    std::vector<Step> steps = steps_with({{"plan_loading", "total"}});
    steps.push_back({"orb_initialization", ""});
    return steps;
  }

  StepTotals assemble_and_tear_down() override {
    const fs::path timings = fs::path(scratch_) / "timings.json";
    std::vector<std::string> arguments{program_, "--once", "--timings", timings.string()};
    arguments.insert(arguments.end(), options_.begin(), options_.end());
    ProgramProcess program(arguments, scratch_);
    program.wait_for_success();
    return totals_of_file(timings);
  }

  void assemble() override {
    std::vector<std::string> arguments{program_};
    arguments.insert(arguments.end(), options_.begin(), options_.end());
    held_ = std::make_unique<ProgramProcess>(arguments, scratch_);
    held_->wait_for_line("assembled", kStartTimeout);
  }

  void tear_down() override {
    if (!held_) return;
    held_->terminate();
    std::unique_ptr<ProgramProcess> held = std::move(held_);
    held->wait_for_success();
  }

  std::vector<HostProcess> processes() const override {
    if (!held_) return {};
    return {{held_->pid(), "program"}};
  }

 private:
  std::string program_;
  std::string scratch_;
  // "--endpoint", ENDPOINT (--bind), "--set", "INSTANCE.ATTRIBUTE=VALUE", ...
  std::vector<std::string> options_;
  std::unique_ptr<ProgramProcess> held_;
};

// The nodes of the plan as daemons for the cell (those of --option nodes
// started elsewhere, the others here), and a launcher per assembly.
class DynamicDeployments final : public Deployments {
 public:
  DynamicDeployments(CORBA::ORB_ptr orb, const Scenario& scenario, const std::string& scratch)
      : orb_(CORBA::ORB::_duplicate(orb)) {
    options_.plan_file = scenario.plan;
    options_.artifact_directories = scenario.artifacts;
    options_.node_map = (fs::path(scratch) / "nodes.map").string();
    for (const auto& value : scenario.overrides)
      options_.overrides.push_back(parse_override(value));
    start_nodes(scenario, scratch);
  }

  std::vector<Step> steps() const override {
    std::vector<Step> steps = steps_with({{"plan_parsing", "total"}, {"plan_check", "total"}});
    // The library load is a segment of home creation, in the component server.
    const auto home = std::find_if(steps.begin(), steps.end(),
                                   [](const Step& step) { return step.name == "home_creation"; });
    steps.insert(home + 1, Step{"library_load", "home_creation"});
    return steps;
  }

  StepTotals assemble_and_tear_down() override {
    Launcher launcher(orb_.in(), options_);
    plan_errors_are_usage_errors([&] { launcher.deploy(); });
    MwccmDeployment::Timings_var timings = launcher.timings();
    StepTotals totals = totals_of(timings.in());
    const std::uint64_t teardown_begin = monotonic_ns();
    launcher.teardown();
    totals["teardown"] = monotonic_ns() - teardown_begin;
    return totals;
  }

  void assemble() override {
    held_ = std::make_unique<Launcher>(orb_.in(), options_);
    plan_errors_are_usage_errors([&] { held_->deploy(); });
  }

  void tear_down() override {
    if (!held_) return;
    std::unique_ptr<Launcher> held = std::move(held_);
    held->teardown();
  }

  std::vector<std::string> nodes_elsewhere() const override { return nodes_elsewhere_; }

  CORBA::Object_ptr provided_reference(const std::string& instance,
                                       const std::string& port) const override {
    return held_ ? held_->provided_reference(instance, port) : CORBA::Object::_nil();
  }

  std::vector<HostProcess> processes() const override {
    std::vector<HostProcess> processes;
    for (const auto& node : nodes_) {
      processes.push_back({node->pid(), "node"});
      for (pid_t server : children_of(node->pid()))
        processes.push_back({server, "component server"});
    }
    return processes;
  }

 private:
  // One mwccm-node per node the plan names and --option nodes does not, each
  // calling back with its reference; the node map names them all.
  void start_nodes(const Scenario& scenario, const std::string& scratch) {
    std::set<std::string> names;
    const Plan plan = plan_errors_are_usage_errors([&] { return read_plan(scenario.plan); });
    for (const auto& instance : plan.instances) names.insert(instance.node);
    std::ofstream map(options_.node_map, std::ios::trunc);
    for (const auto& [name, reference] : nodes_started_elsewhere(scenario, names)) {
      map << name << ' ' << reference << '\n';
      names.erase(name);
      nodes_elsewhere_.push_back(name);
    }
    CORBA::Object_var object = orb_->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(object.in());
    PortableServer::POAManager_var manager = root->the_POAManager();
    manager->activate();
    PortableServer::ObjectId_var id = root->activate_object(&callback_);
    CORBA::Object_var reference = root->id_to_reference(id.in());
    CORBA::String_var callback = orb_->object_to_string(reference.in());
    const fs::path node_program = build::kNodeProgram;
    try {
      for (const auto& name : names) {
        std::vector<std::string> arguments{node_program.string(), "--name", name, "--callback",
                                           callback.in()};
        // The node listens on --bind, and so do the component servers it starts.
        arguments.insert(arguments.end(), {"--endpoint", scenario.endpoint()});
        for (const auto& directory : scenario.artifacts)
          arguments.insert(arguments.end(), {"--artifacts", directory});
        nodes_.push_back(std::make_unique<ChildProcess>(
            arguments, (fs::path(scratch) / (name + ".log")).string(), scratch));
        CORBA::Object_var node = callback_.wait_for(name, *nodes_.back(), kStartTimeout);
        CORBA::String_var ior = orb_->object_to_string(node.in());
        map << name << ' ' << ior.in() << '\n';
      }
    } catch (...) {
      root->deactivate_object(id.in());  // the servant is a member: never left active
      throw;
    }
    root->deactivate_object(id.in());
  }

  // The nodes of --option nodes, by name with their references: each one a
  // node of the plan (`names`), or the map is refused.
  static std::map<std::string, std::string> nodes_started_elsewhere(
      const Scenario& scenario, const std::set<std::string>& names) {
    if (scenario.node_map.empty()) return {};
    std::map<std::string, std::pair<std::string, int>> given;
    try {
      given = read_node_map(scenario.node_map);
    } catch (const PlanError& e) {
      throw mwbench::UsageError("--option nodes: " + std::string(e.what()));
    }
    std::map<std::string, std::string> references;
    for (const auto& [name, where] : given) {
      if (names.count(name) == 0) {
        std::string known;
        for (const auto& known_name : names) known += (known.empty() ? "" : ", ") + known_name;
        throw mwbench::UsageError("--option nodes: " + scenario.node_map + ":" +
                                  std::to_string(where.second) + ": node '" + name +
                                  "' is not a node of plan '" + scenario.name +
                                  "' (its nodes: " + known + ")");
      }
      references[name] = where.first;
    }
    return references;
  }

  CORBA::ORB_var orb_;
  LaunchOptions options_;
  std::vector<std::string> nodes_elsewhere_;
  StartedCallbackServant callback_;
  std::vector<std::unique_ptr<ChildProcess>> nodes_;  // stopped (SIGTERM) when destroyed
  std::unique_ptr<Launcher> held_;                    // destroyed (torn down) before them
};

}  // namespace

std::unique_ptr<Deployments> make_deployments(CORBA::ORB_ptr orb, const Scenario& scenario,
                                              const std::string& scratch) {
  if (scenario.assembly == Assembly::Static)
    return std::make_unique<StaticDeployments>(scenario, scratch);
  return std::make_unique<DynamicDeployments>(orb, scenario, scratch);
}

}  // namespace deploy
