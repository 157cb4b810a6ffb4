// mwbench-driver-deploy: what assembling a component application costs,
// phase by phase, statically and dynamically (docs/deployment.md section 8;
// Subramonian et al., the CIAO static configuration paper).
//
// Operation `assembly` (collocated): one sample is one whole assembly and
// teardown of the plan; each step's time (plan parsing, component server
// creation, home creation and its library load, ..., registration in its
// segments, total, teardown) is a named series of the result file. The
// footprint (bytes on disk, peak RSS) of the processes that host the
// components is measured once, untimed, and goes in middleware_config.
//
// Operation `roundtrip`: the server (remote) or the measuring process itself
// (collocated) deploys the plan and finds the Basic SP airframe's `position`
// facet through navigation from the registered HUD; the client calls
// get_position(): a call on an assembled application, static or dynamic.
//
// Operation `tick_to_display` (collocated): Basic SP ticks at --option
// hertz=N; each sample is one update's latency from the tick to the HUD's
// display, as the HUD records it (samples the application timed); the plan
// `basic_sp_plain_chain` is the same chain as plain C++ objects.
#include <omniORB4/CORBA.h>

#include <BasicSP.hh>
#include <Components.hh>
#include <cstdlib>
#include <filesystem>
#include <mwccm/cookie.hpp>
#include <mwccm/registration.hpp>

#include "deploy_build.hpp"
#include "deploy_footprint.hpp"
#include "deploy_latency.hpp"
#include "deploy_runs.hpp"
#include "deploy_scenario.hpp"
#include "mwbench/driver.hpp"

namespace {

namespace fs = std::filesystem;
using mwbench::DriverOptions;

// Listening on --bind, as every process of the assembly (Scenario::endpoint()):
// the launcher's callbacks, and a collocated process's components.
CORBA::ORB_ptr init_orb(const deploy::Scenario& scenario) {
  int argc = 3;
  std::string endpoint = scenario.endpoint();
  char name[] = "mwbench-driver-deploy", option[] = "-ORBendPoint";
  char* argv[] = {name, option, endpoint.data(), nullptr};
  CORBA::ORB_ptr orb = CORBA::ORB_init(argc, argv);
  mwccm::register_value_factories(orb);  // navigation carries Cookies
  return orb;
}

// A directory of the cell's own for registrations, timings and node logs,
// removed with what it holds.
class Scratch {
 public:
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "mwbench-deploy-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot make a scratch directory");
    path_ = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

nlohmann::json footprint(deploy::Deployments& deployments) {
  deployments.assemble();
  std::vector<nlohmann::json> processes;
  for (const auto& process : deployments.processes())
    processes.push_back(deploy::process_footprint(process));
  deployments.tear_down();
  return deploy::footprint_of(processes);
}

// The airframe's position facet: as the deployment provided it to the HUD in
// another process (D&C's providedReference), or else as the HUD's `airframe`
// receptacle holds it, navigating from the HUD's registration in `scratch`.
// That file is written where the HUD's component server runs: a plan whose
// HUD shares a process with the airframe on a node elsewhere has neither
// here, and fails naming the file.
CORBA::Object_ptr airframe_position(CORBA::ORB_ptr orb, const deploy::Deployments& deployments,
                                    const std::string& scratch) {
  CORBA::Object_var provided = deployments.provided_reference("airframe", "position");
  if (!CORBA::is_nil(provided.in())) return provided._retn();
  Components::CCMObject_var hud = mwccm::resolve<Components::CCMObject>(
      orb, "file:" + (fs::path(scratch) / "hud.ior").string());
  Components::ConnectionDescriptions_var connections = hud->get_connections("airframe");
  if (connections->length() != 1) throw std::runtime_error("the HUD's airframe is not connected");
  return CORBA::Object::_duplicate(connections[0].objref.in());
}

// How the orchestrator starts a node on another host
// (docs/driver-contract-daemons.md, "nodes"): as start_nodes() in deploy_runs.cpp
// does here, trusting the build's artifact directories, and a plan's own
// (--option artifacts) before them.
nlohmann::json node_description() {
  nlohmann::json argv{deploy::build::kNodeProgram, "--name",     "{name}",          "--endpoint",
                      "giop:tcp:{bind}:0",         "--ior-file", "{reference_file}"};
  for (const char* directory : deploy::build::kArtifactDirectories)
    argv.insert(argv.end(), {"--artifacts", directory});
  return {{"option", "nodes"}, {"argv", argv}, {"path_options", {{"artifacts", "--artifacts"}}}};
}

// What the middleware configuration says of the nodes: those started elsewhere.
void record_nodes(nlohmann::json& config, const deploy::Deployments& deployments) {
  const std::vector<std::string> elsewhere = deployments.nodes_elsewhere();
  if (!elsewhere.empty()) config["nodes_elsewhere"] = elsewhere;
}

// Assembles the plan; returns the middleware configuration of an assembled
// application (its plan and nodes), for the result header.
nlohmann::json assemble(const deploy::Scenario& scenario, deploy::Deployments& deployments) {
  deployments.assemble();
  nlohmann::json config{{"plan", scenario.plan}};
  record_nodes(config, deployments);
  return config;
}

class DeployDriver final : public mwbench::Driver {
 public:
  mwbench::Description describe() const override {
    mwbench::Description d("deploy", "mwccm deployment (D&C) on omniORB", omniORB::versionString());
    d.operations = {{"roundtrip", false}, {"assembly", false}, {"tick_to_display", false}};
    // The HUD times each update from the tick's time, taken by RateGen's process.
    d.one_way = {"tick_to_display"};
    d.modes = {{"remote", {"tcp"}}, {"collocated", {"inproc"}}};
    d.options = {
        {"assembly", "static or dynamic (default dynamic)"},
        {"plan", "a plan of this build (" + deploy::plan_names() + ") or a plan file"},
        {"program", "PATH: the plan compiled by mwccm-plan-compile (static; default: the build's)"},
        {"artifacts", "DIR: the plan's artifacts and .ccd files (default: the build's)"},
        {"hertz", "tick_to_display: RateGen's ticks per second, 1 to 100000 (default 1000)"},
        {"nodes",
         "FILE: a node map (NAME REFERENCE lines) of the plan's nodes started elsewhere; "
         "the driver starts the others (dynamic assembly)"},
    };
    d.nodes = node_description();
    d.max_threads = 1;
    d.max_servants = 1;
    return d;
  }

  void serve(const DriverOptions& options, mwbench::ServerContext& context) override {
    if (options.operation != "roundtrip") {
      throw mwbench::UsageError("--operation " + options.operation +
                                " is collocated only: one process assembles and measures");
    }
    const deploy::Scenario scenario = deploy::scenario_of(options);
    Scratch scratch;
    CORBA::ORB_var orb = init_orb(scenario);
    {
      auto deployments = deploy::make_deployments(orb.in(), scenario, scratch.path());
      context.record_middleware_config(assemble(scenario, *deployments));
      CORBA::Object_var position = airframe_position(orb.in(), *deployments, scratch.path());
      CORBA::String_var ior = orb->object_to_string(position.in());
      std::mutex mutex;
      std::condition_variable stopped;
      bool stop = false;
      const mwbench::ScopedStopCallback on_stop(context, [&] {
        std::lock_guard lock(mutex);
        stop = true;
        stopped.notify_all();
      });
      context.publish_endpoint(ior.in());
      std::unique_lock lock(mutex);
      stopped.wait(lock, [&] { return stop; });
      lock.unlock();
      deployments->tear_down();
    }
    orb->destroy();
  }

  void measure(const DriverOptions& options, mwbench::Measurement& measurement) override {
    const deploy::Scenario scenario = deploy::scenario_of(options);
    CORBA::ORB_var orb = init_orb(scenario);
    if (scenario.plain_chain && options.operation != "tick_to_display") {
      throw mwbench::UsageError(std::string("--option plan=") + deploy::kPlainChain +
                                " is measured by tick_to_display only: it has no assembly");
    }
    if (options.operation == "assembly") {
      measure_assembly(options, orb.in(), measurement);
    } else if (options.operation == "tick_to_display") {
      measure_tick_to_display(scenario, orb.in(), measurement);
    } else if (options.role == mwbench::Role::client) {
      CORBA::Object_var object = orb->string_to_object(measurement.read_endpoint().c_str());
      measure_calls(object.in(), measurement);
    } else {
      // Collocated: this process deploys the plan itself, with no server process of
      // mwbench's, and calls the application it assembled.
      Scratch scratch;
      auto deployments = deploy::make_deployments(orb.in(), scenario, scratch.path());
      measurement.record_middleware_config(assemble(scenario, *deployments));
      CORBA::Object_var position = airframe_position(orb.in(), *deployments, scratch.path());
      measure_calls(position.in(), measurement);
      deployments->tear_down();
    }
    orb->destroy();
  }

 private:
  // The HUD's latencies, each a sample the application timed.
  static void measure_tick_to_display(const deploy::Scenario& scenario, CORBA::ORB_ptr orb,
                                      mwbench::Measurement& measurement) {
    const char* assembly = scenario.plain_chain                            ? "none"
                           : scenario.assembly == deploy::Assembly::Static ? "static"
                                                                           : "dynamic";
    measurement.record_middleware_config(
        {{"plan", scenario.plain_chain ? std::string(deploy::kPlainChain) : scenario.plan},
         {"assembly", assembly},
         {"hertz", scenario.hertz},
         {"clock", "CLOCK_MONOTONIC, read by RateGen at the tick and by the HUD at the display"}});
    Scratch scratch;
    measurement.run_reported([&](std::uint64_t updates) {
      return deploy::tick_to_display(orb, scenario, scratch.path(), updates,
                                     std::chrono::duration<double>(measurement.options().timeout_s),
                                     [&] { return measurement.stop_requested(); });
    });
  }

  static void measure_calls(CORBA::Object_ptr object, mwbench::Measurement& measurement) {
    BasicSP::PositionData_var position = BasicSP::PositionData::_narrow(object);
    measurement.run([&] {
      BasicSP::Position p = position->get_position();
      (void)p;
    });
  }

  static void measure_assembly(const DriverOptions& options, CORBA::ORB_ptr orb,
                               mwbench::Measurement& measurement) {
    if (options.batch != 1)
      throw mwbench::UsageError("--batch must be 1: one sample is one assembly");
    const deploy::Scenario scenario = deploy::scenario_of(options);
    Scratch scratch;
    auto deployments = deploy::make_deployments(orb, scenario, scratch.path());
    nlohmann::json config{{"assembly", options.option("assembly", "dynamic")},
                          {"plan", scenario.plan},
                          {"footprint", footprint(*deployments)}};
    if (scenario.assembly == deploy::Assembly::Static) config["program"] = scenario.program;
    record_nodes(config, *deployments);
    measurement.record_middleware_config(config);
    std::vector<std::pair<std::string, mwbench::NamedSeries*>> series;
    for (const auto& step : deployments->steps())
      series.emplace_back(step.name, &measurement.named_series(step.name, step.part_of));
    measurement.run([&] {
      const deploy::StepTotals totals = deployments->assemble_and_tear_down();
      for (auto& [step, values] : series) {
        const auto found = totals.find(step);
        values->record(found == totals.end() ? 0 : found->second);
      }
    });
  }
};

}  // namespace

int main(int argc, char** argv) {
  DeployDriver driver;
  return mwbench::run_driver(argc, argv, driver);
}
