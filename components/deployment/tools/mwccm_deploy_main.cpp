// mwccm-deploy: the plan launcher (docs/deployment.md section 4).
//
//   mwccm-deploy PLAN [--nodes NODEMAP] [--artifacts DIR]... [--interfaces DIR]...
//                [--set INSTANCE.ATTRIBUTE=VALUE]... [--timings FILE] (--wait | --state FILE)
//   mwccm-deploy --teardown --state FILE
//
// Deploys PLAN (.cdp or .config) on the nodes of NODEMAP (lines "NAME
// REFERENCE"), or, without one, on nodes it starts here (mwccm-node beside
// this program, trusting the --artifacts directories). With --wait it stays
// until SIGTERM or SIGINT and then tears down; with --state it writes what
// a later `--teardown --state FILE` needs and exits, the application
// running. --timings writes every timed step as JSON once deployed, and
// with --wait again after the teardown, which it adds. Before a teardown it
// says what every process's event channel did (sent, received, duplicates,
// out of order, lost). Exit status: 0; 1 a
// phase failed (everything created is undone, the message names the phase,
// the node and the instance); 2 a bad plan or command line (nothing created);
// 128 + N for signal N while deploying (what was made is undone: a node
// stops servers stuck in a phase; before anything is made, at once). Every
// file it reads (the plan, the node map, the state, IOR files) is bounded
// and checked before it is read (mwccm/deployment/input_files.hpp): none can
// block it or fill its memory.

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mwbench/stop_signals.hpp>
#include <mwccm/deployment/channel_report.hpp>
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/launcher.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/step_timer.hpp>
#include <mwccm/deployment/timings_file.hpp>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using namespace mwccm::deployment;

CORBA::ORB_ptr init_orb() {
  std::vector<std::string> args{"mwccm-deploy", "-ORBendPoint", "giop:tcp:127.0.0.1:0"};
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  int n = static_cast<int>(pointers.size());
  return CORBA::ORB_init(n, pointers.data());
}

// A file this program writes (--state, --timings) that exists must be a
// regular one: opening a FIFO to write blocks until someone reads it.
bool can_write(const std::string& option, const std::string& file) {
  if (file.empty()) return true;
  const std::string what = mwccm::not_a_regular_file(file);
  if (what.empty()) return true;
  std::cerr << "mwccm-deploy: " << option << ' ' << file << ": " << what << '\n';
  return false;
}

// After a failed deployment with --state: a node log that says nothing is
// removed; one that says something is kept, and named.
void keep_only_telling_logs(const std::vector<std::string>& logs) {
  for (const auto& log : logs) {
    std::error_code error;
    if (fs::file_size(log, error) == 0 && !error) {
      fs::remove(log, error);
    } else if (!error) {
      std::cerr << "mwccm-deploy: the node's log is kept: " << log << '\n';
    }
  }
}

// Before the teardown: what each process's event channel did, losses and
// duplicates included (docs/events.md, "Once per sink").
void say_what_channels_did(const MwccmDeployment::ChannelCountersList& counted) {
  for (const std::string& line : mwccm::deployment::channel_report(counted))
    std::cout << "mwccm-deploy: " << line << '\n';
  std::cout.flush();
}

}  // namespace

int main(int argc, char** argv) {
  mwbench::block_stop_signals();  // in every thread; a watcher waits for them

  LaunchOptions options;
  std::string timings_file, state_file;
  bool wait = false, teardown = false;
  CLI::App app{"mwccm-deploy: deploy a plan on mwccm nodes, or tear it down"};
  app.add_option("plan", options.plan_file, "the plan (.cdp or .config)");
  app.add_option("--nodes", options.node_map, "node map: NAME REFERENCE per line");
  app.add_option("--artifacts", options.artifact_directories, "where artifacts and their .ccd are")
      ->check(CLI::ExistingDirectory);
  app.add_option("--interfaces", options.interface_directories, "more .ccd directories")
      ->check(CLI::ExistingDirectory);
  app.add_option("--timings", timings_file, "write every timed step here (JSON)");
  app.add_option("--state", state_file,
                 "write (deploy) or read (--teardown) the deployment's state");
  std::vector<std::string> overrides;
  app.add_option("--set", overrides, "INSTANCE.ATTRIBUTE=VALUE: override a value the plan sets")
      ->allow_extra_args(false);
  app.add_flag("--wait", wait, "stay until SIGTERM or SIGINT, then tear down");
  app.add_flag("--teardown", teardown, "tear down the deployment --state describes");
  CLI11_PARSE(app, argc, argv);
  if (teardown == !options.plan_file.empty() || (teardown && state_file.empty()) ||
      (!teardown && wait == !state_file.empty())) {
    std::cerr
        << "mwccm-deploy: give PLAN with --wait or --state FILE, or --teardown --state FILE\n";
    return 2;
  }
  try {
    for (const auto& text : overrides) options.overrides.push_back(parse_override(text));
  } catch (const std::invalid_argument& e) {
    std::cerr << "mwccm-deploy: " << e.what() << '\n';
    return 2;
  }
  if (!can_write("--timings", timings_file) || (!teardown && !can_write("--state", state_file)))
    return 2;
  options.node_program = (fs::canonical("/proc/self/exe").parent_path() / "mwccm-node").string();
  if (!state_file.empty() && !teardown) options.node_log_prefix = state_file + ".";

  CORBA::ORB_var orb = init_orb();
  int status = 0;
  if (teardown) {
    try {
      if (!fs::exists(state_file)) {
        std::cout << "mwccm-deploy: nothing to tear down (" << state_file << " does not exist)\n";
      } else {
        const std::string state = read_input_file(state_file, kStateFile);
        const std::vector<std::string> gone =
            Launcher::teardown_state(orb.in(), state, say_what_channels_did);
        for (const auto& line : gone) std::cerr << "mwccm-deploy: teardown: " << line << '\n';
        if (!gone.empty()) status = 1;  // said; and nothing is left to tear down again
        for (const auto& log : Launcher::logs_of_state(state)) fs::remove(log);
        fs::remove(state_file);
      }
    } catch (const PlanError& error) {
      for (const auto& problem : error.problems()) std::cerr << problem.to_string() << '\n';
      status = 2;
    } catch (const nlohmann::json::exception& e) {
      std::cerr << state_file << ": not a state mwccm-deploy wrote: " << mwccm::shortened(e.what())
                << '\n';
      status = 2;
    } catch (const std::exception& e) {
      std::cerr << "mwccm-deploy: " << e.what() << '\n';
      status = 1;
    }
    orb->destroy();
    return status;
  }

  {
    Launcher launcher(orb.in(), options);
    // The stop signals: while deploying, interrupt it (deploy() then fails
    // soon and undoes what it made); once deployed with --wait, tear down.
    std::atomic<bool> deployed{false};
    std::atomic<int> signalled{0};
    mwbench::StopSignalThread watcher(
        [&](int which) {
          signalled.store(which);
          if (deployed.load()) return;
          if (!launcher.interrupt()) {
            std::cerr << "mwccm-deploy: signal " << which
                      << " before anything was made: stopping\n";
            std::_Exit(128 + which);
          }
          std::cerr << "mwccm-deploy: signal " << which << " while deploying: undoing it\n";
        },
        mwbench::StopSignalThread::Calls::first_signal_only);
    MwccmDeployment::Timings_var timings;
    try {
      launcher.deploy();
      deployed.store(true);
      if (signalled.load() != 0) {  // it came as deploy() returned: undo it all the same
        launcher.teardown();
        throw std::runtime_error("interrupted (SIGTERM or SIGINT) as it finished; undone");
      }
      if (!timings_file.empty()) {
        timings = launcher.timings();
        write_timings_file(timings_file, timings.in());
      }
      if (!state_file.empty()) {
        std::ofstream(state_file, std::ios::trunc) << launcher.state();
        launcher.detach_nodes();
        std::cout << "mwccm-deploy: deployed " << options.plan_file
                  << "; tear it down with --teardown --state " << state_file << std::endl;
        std::_Exit(0);  // the application and the nodes started here keep running
      }
      std::cout << "mwccm-deploy: deployed " << options.plan_file
                << "; waiting for SIGTERM or SIGINT" << std::endl;
      watcher.wait_for_first();
      const std::uint64_t teardown_begin = monotonic_ns();
      MwccmDeployment::ChannelCountersList_var counted = launcher.channel_counters();
      say_what_channels_did(counted.in());
      launcher.teardown();
      if (!timings_file.empty()) {  // again, with the whole teardown as the launcher saw it
        const CORBA::ULong last = timings->length();
        timings->length(last + 1);
        timings[last] = {"teardown", options.plan_file.c_str(), "launcher", teardown_begin,
                         monotonic_ns()};
        write_timings_file(timings_file, timings.in());
      }
    } catch (const PlanError& error) {
      for (const auto& problem : error.problems()) std::cerr << problem.to_string() << '\n';
      status = 2;
    } catch (const std::exception& error) {
      std::cerr << "mwccm-deploy: " << error.what() << '\n';
      status = signalled.load() != 0 && !deployed.load() ? 128 + signalled.load() : 1;
    }
    if (status != 0) keep_only_telling_logs(launcher.node_logs());
  }
  orb->destroy();
  return status;
}
