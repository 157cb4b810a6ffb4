// mwccm-component-server: hosts containers for a deployment engine.
//
//   mwccm-component-server --ior-file server.ior [--endpoint giop:tcp:127.0.0.1:0]
//                          [--naming Deploy/Server1] [-ORB... options]
//   mwccm-component-server --locality NAME --callback IOR
//                          [--priority N] [--cpu-affinity 0,1] [--orb-threads N]
//                          [--channel-address 127.0.0.1]
//
// Writes its ComponentServer reference to the IOR file (and binds it in the
// naming service with --naming), serves until ComponentServer::shutdown() or
// SIGTERM/SIGINT, which both remove every component and container while the
// ORB still serves, then stop it; exits 0.
//
// With --locality it is a node's locality manager (docs/deployment.md
// section 4): it applies its real-time settings, then calls the node back
// (StartedCallback) with its MwccmDeployment::Locality reference, through
// which the node assembles the locality's part of the plan. A setting the
// machine refuses (SCHED_FIFO without the right) exits 2 with the reason.
//
// Its sockets stay on the addresses it is given: Cyclone DDS 0.10 binds its
// receive sockets to every interface whatever its configuration names, so
// this program keeps them on --channel-address (the plan's
// mwccm.Channel.Address: loopback unless told otherwise), as the DDS drivers
// do (mwbench/dds/confine.hpp: a wildcard bind becomes that address), unless
// its ORB was told to listen on every interface ("giop:tcp::0"), a wildcard
// bind it must keep.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <iostream>
#include <mwbench/stop_signals.hpp>
#include <mwccm/component_server.hpp>
#include <mwccm/deployment/dds_sockets.hpp>
#include <mwccm/deployment/locality_servant.hpp>
#include <mwccm/deployment/process_settings.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string ior_file;
  std::string endpoint = "giop:tcp:127.0.0.1:0";
  std::string naming;
  std::string locality;
  std::string callback;
  std::string channel_address = "127.0.0.1";  // mwccm::ReceiverSettings' default
  int lifeline = -1;
  mwccm::deployment::ProcessSettings settings;
};

// The node's lifeline (mwccm/deployment/node.hpp): when reading it says
// end-of-file, the node has ended, and so does this server, by the clean
// path a stop signal takes. A detached thread: the process ends with it.
void watch_lifeline(int descriptor) {
  std::thread([descriptor] {
    char byte = 0;
    for (;;) {
      const ssize_t got = read(descriptor, &byte, 1);
      if (got == 0 || (got < 0 && errno != EINTR)) break;  // an error: as good as the end
    }
    std::cerr << "mwccm-component-server: its node has ended: stopping\n";
    kill(getpid(), SIGTERM);
  }).detach();
}

// Activates the locality manager and hands its reference to the node;
// returns it (one reference count for the caller, the POA holds another).
mwccm::deployment::LocalityServant* report_locality(CORBA::ORB_ptr orb,
                                                    mwccm::ComponentServer& server,
                                                    const Options& options) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var root = PortableServer::POA::_narrow(object.in());
  auto* locality = new mwccm::deployment::LocalityServant(orb, server);
  PortableServer::ObjectId_var id = root->activate_object(locality);
  CORBA::Object_var reference = root->id_to_reference(id.in());
  CORBA::Object_var callback_object = orb->string_to_object(options.callback.c_str());
  MwccmDeployment::StartedCallback_var callback =
      MwccmDeployment::StartedCallback::_narrow(callback_object.in());
  if (CORBA::is_nil(callback.in())) throw mwccm::Error("--callback is not a StartedCallback");
  callback->started(options.locality.c_str(), reference.in());
  return locality;
}

}  // namespace

int main(int argc, char** argv) {
  // In every thread; a watcher waits for them and asks the ORB to stop (no
  // work in a signal handler).
  mwbench::block_stop_signals();

  // -ORB options are the ORB's; --endpoint is read first so it reaches ORB_init.
  Options options;
  CLI::App app{"mwccm component server: hosts containers of mwccm components"};
  auto* ior_file =
      app.add_option("--ior-file", options.ior_file, "where to write this server's IOR");
  app.add_option("--endpoint", options.endpoint, "omniORB endpoint")->capture_default_str();
  app.add_option("--naming", options.naming, "naming-service path to bind this server at");
  auto* locality =
      app.add_option("--locality", options.locality, "serve as this locality's manager");
  auto* callback = app.add_option("--callback", options.callback, "the node's StartedCallback IOR");
  locality->needs(callback);
  callback->needs(locality);
  ior_file->excludes(locality);
  app.add_option("--priority", options.settings.priority, "SCHED_FIFO priority (1..99)")
      ->check(CLI::Range(1, 99));
  app.add_option("--cpu-affinity", options.settings.cpu_affinity, "CPUs to run on: 0 or 0,1");
  app.add_option("--lifeline", options.lifeline,
                 "a descriptor whose end-of-file means: the node has ended, stop")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--orb-threads", options.settings.orb_threads, "ORB thread pool size")
      ->check(CLI::Range(1, 1024));
  app.add_option("--channel-address", options.channel_address,
                 "where its channels receive (mwccm.Channel.Address); its DDS sockets stay there")
      ->capture_default_str();
  app.allow_extras();
  CLI11_PARSE(app, argc, argv);
  if (options.ior_file.empty() && options.locality.empty()) {
    std::cerr << "mwccm-component-server: --ior-file or --locality is required\n";
    return 2;
  }
  try {
    // Before any participant exists.
    mwccm::deployment::keep_dds_sockets_on(options.endpoint, options.channel_address);
    mwccm::deployment::apply_process_settings(options.settings);
  } catch (const std::exception& e) {
    std::cerr << "mwccm-component-server: " << e.what() << '\n';
    return 2;
  }

  if (options.lifeline >= 0) watch_lifeline(options.lifeline);
  CORBA::ORB_var orb =
      mwccm::deployment::init_component_orb(argc, argv, options.endpoint, options.settings);
  int status = 0;
  {
    mwccm::ComponentServer server(orb.in());
    PortableServer::Servant_var<mwccm::deployment::LocalityServant> locality;
    try {
      if (!options.ior_file.empty()) {
        mwccm::register_reference(orb.in(), server.activate(), options.ior_file);
      }
      if (!options.naming.empty()) {
        mwccm::register_reference(orb.in(), server.activate(), "naming:" + options.naming);
      }
      if (!options.locality.empty()) locality = report_locality(orb.in(), server, options);
    } catch (const mwccm::Error& e) {
      std::cerr << "mwccm-component-server: " << e.what() << '\n';
      status = 1;
    } catch (const CORBA::Exception& e) {
      std::cerr << "mwccm-component-server: cannot call the node back (" << e._name() << ")\n";
      status = 1;
    }
    if (status == 0) {
      // A stop signal (or the node's end): the same clean path as a
      // shutdown() request, the locality's teardown first (its registrations
      // removed). Nothing may escape this thread (std::terminate): a failure
      // is said, and the process still ends.
      const mwbench::StopSignalThread watcher(
          [&](int) {
            try {
              if (locality.in() != nullptr) {
                locality->shutdown();
              } else {
                server.shutdown();
              }
            } catch (...) {
              std::cerr << "mwccm-component-server: stopping: "
                        << mwccm::current_exception_message() << '\n';
              mwccm::stop_orb(orb.in());
            }
          },
          mwbench::StopSignalThread::Calls::first_signal_only);
      orb->run();
    }
    server.remove_all();
  }
  orb->destroy();
  return status;
}
