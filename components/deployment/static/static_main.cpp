// The compiled plan's process (static_plan.hpp):
//
//   PROGRAM [--endpoint giop:tcp:127.0.0.1:0] [--timings FILE] [--once]
//           [--set INSTANCE.ATTRIBUTE=VALUE]... [-ORB...]
//
// Applies the plan's real-time settings, starts the ORB and an in-process
// component server, assembles the plan's tables, prints "assembled LABEL",
// and serves until SIGTERM or SIGINT; then tears down and exits 0. With
// --once it tears down at once (one whole assembly and teardown, as the
// deploy driver measures it). --set overrides a value the plan sets
// (attribute_override.hpp). --timings writes every timed step once
// assembled, and again after the teardown. Exit status: 0; 1 a phase
// failed (what was made is undone; the message names the phase and the
// instance or port); 2 a bad command line, or real-time settings the
// machine refuses.
#include <pthread.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <mwccm/component_server.hpp>
#include <mwccm/deployment/dds_sockets.hpp>
#include <mwccm/deployment/locality_assembly.hpp>
#include <mwccm/deployment/process_settings.hpp>
#include <mwccm/deployment/static_plan.hpp>
#include <mwccm/deployment/timings_file.hpp>
#include <mwccm/errors.hpp>

namespace mwccm::deployment::static_plan {
namespace {

// Where channels receive when the plan names no address (mwccm::ReceiverSettings').
constexpr const char* kDefaultChannelAddress = "127.0.0.1";

struct Options {
  std::string endpoint = "giop:tcp:127.0.0.1:0";
  std::string timings_file;
  bool once = false;
  std::vector<AttributeOverride> overrides;
};

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

CORBA::ORB_ptr init_orb(int argc, char** argv, const Options& options,
                        const ProcessSettings& settings) {
  std::vector<std::string> args(argv, argv + argc);
  std::vector<std::string> first{"-ORBendPoint", options.endpoint};
  for (auto& option : orb_options(settings)) first.push_back(option);
  args.insert(args.begin() + 1, first.begin(), first.end());
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  int n = static_cast<int>(pointers.size());
  return CORBA::ORB_init(n, pointers.data());
}

void write_timings(const Options& options, const LocalityAssembly& assembly) {
  if (options.timings_file.empty()) return;
  MwccmDeployment::Timings_var timings = assembly.timings();
  write_timings_file(options.timings_file, timings.in());
}

// Assembles, serves (unless --once) and tears down; the exit status.
// The assembly (`total`) starts once the ORB runs, as CIAO's static
// configuration is timed (Subramonian et al., Table 1): the ORB is the
// program's, made before any plan is looked at, and its initialization is
// the step `orb_initialization` of its own. A spawned component server's
// ORB, by contrast, is made for the plan: it counts in the dynamic mode's
// server_creation.
int assemble_and_serve(CORBA::ORB_ptr orb, const Plan& plan, const Options& options,
                       std::uint64_t orb_begin, std::uint64_t orb_end) {
  const std::uint64_t begin_ns = monotonic_ns();
  mwccm::ComponentServer server(orb);
  server.activate();
  LocalityAssembly assembly(orb, server);
  assembly.timer().set_process(plan.locality);
  assembly.timer().record("orb_initialization", plan.locality, orb_begin, orb_end);
  assembly.timer().record("server_creation", plan.locality, begin_ns, monotonic_ns());
  int status = 0;
  try {
    const std::uint64_t loading_begin = monotonic_ns();
    const MwccmDeployment::LocalityPlan locality = locality_plan(orb, plan, options.overrides);
    assembly.timer().record("plan_loading", plan.source, loading_begin, monotonic_ns());
    // As a component server's: before start_launch makes any DDS participant.
    const std::string channel_address = locality.settings.channel_address.in();
    keep_dds_sockets_on(options.endpoint,
                        channel_address.empty() ? kDefaultChannelAddress : channel_address);
    MwccmDeployment::ProvidedReferences_var provided = assembly.start_launch(locality);
    assembly.finish_launch(MwccmDeployment::ProvidedReferences(), true);
    assembly.timer().record("total", plan.source, begin_ns, monotonic_ns());
    write_timings(options, assembly);
    std::cout << "assembled " << plan.label << std::endl;
    if (!options.once) {
      sigset_t signals = stop_signals();
      int which = 0;
      sigwait(&signals, &which);
    }
    const std::uint64_t teardown_begin = monotonic_ns();
    assembly.teardown();
    assembly.timer().record("teardown", plan.source, teardown_begin, monotonic_ns());
    write_timings(options, assembly);
  } catch (const MwccmDeployment::DeploymentFailure& failure) {
    std::cerr << plan.label << ": " << failure.phase.in() << " failed, " << failure.subject.in()
              << ": " << failure.message.in() << '\n';
    status = 1;
  } catch (...) {
    std::cerr << plan.label << ": " << mwccm::current_exception_message() << '\n';
    status = 1;
  }
  if (status != 0) {
    try {
      assembly.teardown();  // undo what was made before the failure
    } catch (...) {
      std::cerr << plan.label << ": and undoing it: " << mwccm::current_exception_message() << '\n';
    }
  }
  server.remove_all();
  orb->shutdown(true);  // its POAs go, the server's activation with them, before the server
  return status;
}

}  // namespace

int run(int argc, char** argv, const Plan& plan) {
  sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // every thread; sigwait takes them

  Options options;
  CLI::App app{std::string("the plan '") + plan.label + "' (" + plan.source +
               "), assembled in this process"};
  app.add_option("--endpoint", options.endpoint, "omniORB endpoint")->capture_default_str();
  app.add_option("--timings", options.timings_file, "write every timed step here (JSON)");
  app.add_flag("--once", options.once, "tear down as soon as assembled, and exit");
  std::vector<std::string> overrides;
  app.add_option("--set", overrides, "INSTANCE.ATTRIBUTE=VALUE: override a value the plan sets")
      ->allow_extra_args(false);
  app.allow_extras();  // -ORB options are the ORB's
  CLI11_PARSE(app, argc, argv);
  try {
    for (const auto& text : overrides) options.overrides.push_back(parse_override(text));
    check_overrides(plan, options.overrides);
  } catch (const std::invalid_argument& e) {
    std::cerr << plan.label << ": " << e.what() << '\n';
    return 2;
  }

  const ProcessSettings settings{plan.priority, plan.cpu_affinity, plan.orb_threads};
  try {
    apply_process_settings(settings);
  } catch (const std::exception& e) {
    std::cerr << plan.label << ": " << e.what() << '\n';
    return 2;
  }
  const std::uint64_t orb_begin = monotonic_ns();
  CORBA::ORB_var orb = init_orb(argc, argv, options, settings);
  const int status = assemble_and_serve(orb.in(), plan, options, orb_begin, monotonic_ns());
  orb->destroy();
  return status;
}

}  // namespace mwccm::deployment::static_plan
