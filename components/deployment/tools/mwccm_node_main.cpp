// mwccm-node: one daemon per node (docs/deployment.md section 4).
//
//   mwccm-node --name NODE --artifacts DIR [--artifacts DIR ...]
//              (--ior-file PATH | --callback IOR) [--endpoint giop:tcp:127.0.0.1:0]
//              [--server PATH] [--timeout SECONDS]
//
// Serves a MwccmDeployment::NodeManager on loopback unless told otherwise,
// publishing its reference to a file and/or by calling its starter back.
// For each plan it spawns one mwccm-component-server per locality (--server;
// by default the one beside this program), loading artifacts only from the
// --artifacts directories. SIGTERM or SIGINT destroys every application it
// started (no component server is left behind) and exits 0.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mwbench/stop_signals.hpp>
#include <mwccm/component_server.hpp>
#include <mwccm/deployment/node.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>

namespace {

namespace fs = std::filesystem;
using mwccm::deployment::NodeSettings;

struct Options {
  NodeSettings node;
  std::string ior_file;
  std::string callback;
  std::string endpoint = "giop:tcp:127.0.0.1:0";
  unsigned timeout_seconds = 30;
};

// "giop:tcp:HOST:PORT" → HOST, where this node's servers listen too.
std::string host_of(const std::string& endpoint) {
  const std::string prefix = "giop:tcp:";
  if (endpoint.rfind(prefix, 0) != 0) throw std::runtime_error("--endpoint is giop:tcp:HOST:PORT");
  const std::string rest = endpoint.substr(prefix.size());
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::runtime_error("--endpoint is giop:tcp:HOST:PORT");
  return rest.substr(0, colon);
}

CORBA::ORB_ptr init_orb(const std::string& endpoint) {
  std::vector<std::string> args{"mwccm-node", "-ORBendPoint", endpoint};
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  int n = static_cast<int>(pointers.size());
  return CORBA::ORB_init(n, pointers.data());
}

void announce(CORBA::ORB_ptr orb, CORBA::Object_ptr reference, const Options& options) {
  if (!options.ior_file.empty()) mwccm::register_reference(orb, reference, options.ior_file);
  if (options.callback.empty()) return;
  CORBA::Object_var object = orb->string_to_object(options.callback.c_str());
  MwccmDeployment::StartedCallback_var callback =
      MwccmDeployment::StartedCallback::_narrow(object.in());
  if (CORBA::is_nil(callback.in())) throw std::runtime_error("--callback is not a StartedCallback");
  callback->started(options.node.name.c_str(), reference);
}

}  // namespace

int main(int argc, char** argv) {
  mwbench::block_stop_signals();  // in every thread; a watcher waits for them

  Options options;
  CLI::App app{"mwccm-node: deploys a node's part of plans, one component server per locality"};
  app.add_option("--name", options.node.name, "this node's name in plans")->required();
  app.add_option("--artifacts", options.node.artifact_directories,
                 "a directory artifacts may be loaded from")
      ->required()
      ->check(CLI::ExistingDirectory);
  auto* ior_file =
      app.add_option("--ior-file", options.ior_file, "where to write the NodeManager's IOR");
  auto* callback =
      app.add_option("--callback", options.callback, "a StartedCallback IOR to call with it");
  app.add_option("--endpoint", options.endpoint, "omniORB endpoint")->capture_default_str();
  app.add_option("--server", options.node.server_program, "the component server program")
      ->check(CLI::ExistingFile);
  app.add_option("--timeout", options.timeout_seconds,
                 "seconds a component server has to call back")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (ior_file->count() == 0 && callback->count() == 0) {
    std::cerr << "mwccm-node: --ior-file or --callback is required\n";
    return 2;
  }
  if (options.node.server_program.empty()) {
    options.node.server_program =
        (fs::canonical("/proc/self/exe").parent_path() / "mwccm-component-server").string();
  }
  options.node.callback_timeout = std::chrono::seconds(options.timeout_seconds);
  // The lifeline: this process holds the write end, never written, until it
  // ends; its component servers inherit the read end (node.hpp).
  int lifeline[2];
  if (pipe2(lifeline, O_CLOEXEC) != 0) {
    std::cerr << "mwccm-node: cannot make the lifeline pipe: " << std::strerror(errno) << '\n';
    return 1;
  }
  options.node.lifeline = lifeline[0];

  CORBA::ORB_var orb;
  mwccm::deployment::NodeManagerServant* manager = nullptr;
  try {
    options.node.server_host = host_of(options.endpoint);
    orb = init_orb(options.endpoint);
    manager = new mwccm::deployment::NodeManagerServant(orb.in(), options.node);
  } catch (const std::exception& e) {
    std::cerr << "mwccm-node: " << e.what() << '\n';
    return 2;
  }
  int status = 0;
  try {
    CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(object.in());
    PortableServer::ObjectId_var id = root->activate_object(manager);
    PortableServer::POAManager_var poa_manager = root->the_POAManager();
    poa_manager->activate();
    CORBA::Object_var reference = root->id_to_reference(id.in());
    announce(orb.in(), reference.in(), options);
  } catch (const std::exception& e) {
    std::cerr << "mwccm-node: " << e.what() << '\n';
    status = 1;
  } catch (const CORBA::Exception& e) {
    std::cerr << "mwccm-node: cannot announce this node (" << e._name() << ")\n";
    status = 1;
  }
  if (status == 0) {
    // Nothing may escape this thread (std::terminate): a server may fail to
    // stop, and the launcher may have shut the node down over CORBA just
    // before the signal came; the node still ends.
    const mwbench::StopSignalThread watcher(
        [&](int) {
          try {
            manager->destroy_all();  // every component server this node started
          } catch (...) {
            std::cerr << "mwccm-node: stopping: " << mwccm::current_exception_message() << '\n';
          }
          mwccm::stop_orb(orb.in());
        },
        mwbench::StopSignalThread::Calls::first_signal_only);
    orb->run();
  }
  manager->destroy_all();
  manager->_remove_ref();
  if (!options.ior_file.empty()) {  // what it wrote, removed as it ends
    try {
      mwccm::unregister_reference(orb.in(), options.ior_file);
    } catch (const std::exception& e) {
      std::cerr << "mwccm-node: " << e.what() << '\n';
    }
  }
  orb->destroy();
  return status;
}
