// mwccm-component-server: hosts containers for a deployment engine.
//
//   mwccm-component-server --ior-file server.ior [--endpoint giop:tcp:127.0.0.1:0]
//                          [--naming Deploy/Server1] [-ORB... options]
//
// Writes its ComponentServer reference to the IOR file (and binds it in the
// naming service with --naming), serves until ComponentServer::shutdown() or
// SIGTERM/SIGINT, which both remove every component and container while the
// ORB still serves, then stop it; exits 0.
#include <pthread.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <iostream>
#include <mwccm/component_server.hpp>
#include <mwccm/registration.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string ior_file;
  std::string endpoint = "giop:tcp:127.0.0.1:0";
  std::string naming;
};

// Blocks the stop signals in every thread; a watcher thread waits for them
// with sigwait and asks the ORB to stop (no work in a signal handler).
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

// ORB_init with the endpoint first, then every argument as given (the ORB
// takes its -ORB options; CLI11 has already read ours).
CORBA::ORB_ptr init_orb(int argc, char** argv, const std::string& endpoint) {
  std::vector<std::string> args(argv, argv + argc);
  args.insert(args.begin() + 1, {"-ORBendPoint", endpoint});
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  int n = static_cast<int>(pointers.size());
  return CORBA::ORB_init(n, pointers.data());
}

}  // namespace

int main(int argc, char** argv) {
  sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // -ORB options are the ORB's; --endpoint is read first so it reaches ORB_init.
  Options options;
  CLI::App app{"mwccm component server: hosts containers of mwccm components"};
  app.add_option("--ior-file", options.ior_file, "where to write this server's IOR")->required();
  app.add_option("--endpoint", options.endpoint, "omniORB endpoint")->capture_default_str();
  app.add_option("--naming", options.naming, "naming-service path to bind this server at");
  app.allow_extras();
  CLI11_PARSE(app, argc, argv);

  CORBA::ORB_var orb = init_orb(argc, argv, options.endpoint);
  int status = 0;
  {
    mwccm::ComponentServer server(orb.in());
    try {
      mwccm::register_reference(orb.in(), server.activate(), options.ior_file);
      if (!options.naming.empty()) {
        mwccm::register_reference(orb.in(), server.activate(), "naming:" + options.naming);
      }
    } catch (const mwccm::Error& e) {
      std::cerr << "mwccm-component-server: " << e.what() << '\n';
      status = 1;
    }
    if (status == 0) {
      std::atomic<bool> run_ended{false};
      std::thread watcher([&server, &run_ended, signals] {
        int which = 0;
        sigwait(&signals, &which);
        // A stop signal: the same clean path as a shutdown() request.
        if (!run_ended.load()) server.shutdown();
      });
      orb->run();
      run_ended.store(true);
      pthread_kill(watcher.native_handle(), SIGTERM);  // wakes the watcher if run() ended otherwise
      watcher.join();
    }
    server.remove_all();
  }
  orb->destroy();
  return status;
}
