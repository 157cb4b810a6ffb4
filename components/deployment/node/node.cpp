// mwccm-node's NodeManager and NodeApplication (node.hpp).
#include <algorithm>
#include <mwccm/deployment/node.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <stdexcept>

namespace mwccm::deployment {

namespace {
// How long a component server that lost a connection has to exit by itself.
constexpr std::chrono::seconds kServerExitGrace{10};

PortableServer::POA_ptr root_poa(CORBA::ORB_ptr orb) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  return PortableServer::POA::_narrow(object.in());
}

MwccmDeployment::DeploymentFailure failure(const char* phase, const std::string& subject,
                                           const std::string& message) {
  return MwccmDeployment::DeploymentFailure(phase, subject.c_str(), message.c_str());
}

}  // namespace

// ---- NodeApplication ----------------------------------------------------------

NodeApplicationServant::NodeApplicationServant(CORBA::ORB_ptr orb, const NodeSettings& settings,
                                               MwccmDeployment::LocalityPlans localities)
    : orb_(CORBA::ORB::_duplicate(orb)),
      settings_(settings),
      localities_(std::move(localities)),
      callback_(new StartedCallbackServant),
      timer_(settings.name) {
  PortableServer::POA_var root = root_poa(orb);
  PortableServer::ObjectId_var id = root->activate_object(callback_);
  CORBA::Object_var reference = root->id_to_reference(id.in());
  CORBA::String_var ior = orb->object_to_string(reference.in());
  callback_ior_ = ior.in();
}

NodeApplicationServant::~NodeApplicationServant() { callback_->_remove_ref(); }

std::vector<std::string> NodeApplicationServant::server_arguments(
    const MwccmDeployment::LocalityPlan& plan, const std::string& callback) const {
  std::vector<std::string> arguments{settings_.server_program,
                                     "--locality",
                                     plan.name.in(),
                                     "--callback",
                                     callback,
                                     "--endpoint",
                                     "giop:tcp:" + settings_.server_host + ":0"};
  if (settings_.lifeline >= 0) {
    arguments.insert(arguments.end(), {"--lifeline", std::to_string(ChildProcess::kInheritedFd)});
  }
  if (plan.settings.priority > 0) {
    arguments.insert(arguments.end(), {"--priority", std::to_string(plan.settings.priority)});
  }
  if (*plan.settings.cpu_affinity.in() != '\0') {
    arguments.insert(arguments.end(), {"--cpu-affinity", plan.settings.cpu_affinity.in()});
  }
  if (plan.settings.orb_threads > 0) {
    arguments.insert(arguments.end(), {"--orb-threads", std::to_string(plan.settings.orb_threads)});
  }
  if (*plan.settings.channel_address.in() != '\0') {  // where its DDS sockets must stay too
    arguments.insert(arguments.end(), {"--channel-address", plan.settings.channel_address.in()});
  }
  return arguments;
}

MwccmDeployment::ProvidedReferences* NodeApplicationServant::start_launch() {
  std::lock_guard lock(mutex_);
  MwccmDeployment::ProvidedReferences_var all = new MwccmDeployment::ProvidedReferences;
  for (CORBA::ULong i = 0; i < localities_.length(); ++i) {
    const MwccmDeployment::LocalityPlan& plan = localities_[i];
    const std::string locality = plan.name.in();
    Server server{locality, nullptr, nullptr};
    try {
      const std::uint64_t begin = monotonic_ns();
      server.process = std::make_unique<ChildProcess>(server_arguments(plan, callback_ior_), "", "",
                                                      settings_.lifeline);
      {
        std::lock_guard processes(processes_mutex_);
        processes_.push_back(server.process.get());
      }
      CORBA::Object_var reference =
          callback_->wait_for(locality, *server.process, settings_.callback_timeout);
      timer_.record("server_creation", locality, begin, monotonic_ns());
      server.manager = MwccmDeployment::Locality::_narrow(reference.in());
    } catch (const std::exception& e) {
      if (server.process) servers_.push_back(std::move(server));  // destroy() stops it
      throw failure("start_launch", locality, "component server: " + std::string(e.what()));
    }
    servers_.push_back(std::move(server));
    try {
      MwccmDeployment::ProvidedReferences_var provided =
          servers_.back().manager->start_launch(plan);
      const CORBA::ULong first = all->length();
      all->length(first + provided->length());
      for (CORBA::ULong p = 0; p < provided->length(); ++p) all[first + p] = provided[p];
    } catch (const MwccmDeployment::DeploymentFailure&) {
      throw;
    } catch (const CORBA::Exception&) {
      const std::string message = mwccm::current_exception_message();
      // A server that dies drops its connection first: wait for its exit to say how it ended.
      servers_.back().process->wait_for_exit(kServerExitGrace);
      throw failure(
          "start_launch", locality,
          message + " (the component server " + servers_.back().process->exit_description() + ")");
    }
  }
  return all._retn();
}

void NodeApplicationServant::finish_launch(const MwccmDeployment::ProvidedReferences& references,
                                           CORBA::Boolean start) {
  std::lock_guard lock(mutex_);
  for (auto& server : servers_) {
    try {
      server.manager->finish_launch(references, start);
    } catch (const MwccmDeployment::DeploymentFailure&) {
      throw;
    } catch (const CORBA::Exception&) {
      throw failure("finish_launch", server.locality, mwccm::current_exception_message());
    }
  }
}

void NodeApplicationServant::start() {
  std::lock_guard lock(mutex_);
  for (auto& server : servers_) {
    try {
      server.manager->start();
    } catch (const MwccmDeployment::DeploymentFailure&) {
      throw;
    } catch (const CORBA::Exception&) {
      throw failure("start", server.locality, mwccm::current_exception_message());
    }
  }
}

MwccmDeployment::Timings* NodeApplicationServant::get_timings() {
  std::lock_guard lock(mutex_);
  MwccmDeployment::Timings_var all = timer_.timings();
  for (auto& server : servers_) {
    if (CORBA::is_nil(server.manager.in())) continue;
    MwccmDeployment::Timings_var timings = server.manager->get_timings();
    const CORBA::ULong first = all->length();
    all->length(first + timings->length());
    for (CORBA::ULong t = 0; t < timings->length(); ++t) all[first + t] = timings[t];
  }
  return all._retn();
}

MwccmDeployment::ChannelCountersList* NodeApplicationServant::get_channel_counters() {
  std::lock_guard lock(mutex_);
  MwccmDeployment::ChannelCountersList_var all = new MwccmDeployment::ChannelCountersList;
  for (auto& server : servers_) {
    if (CORBA::is_nil(server.manager.in()) || server.process->exited()) continue;
    try {
      MwccmDeployment::ChannelCountersList_var counted = server.manager->get_channel_counters();
      const CORBA::ULong first = all->length();
      all->length(first + counted->length());
      for (CORBA::ULong c = 0; c < counted->length(); ++c) all[first + c] = counted[c];
    } catch (const CORBA::SystemException&) {
      // Its process went as it was asked: the others' counters still count.
    }
  }
  return all._retn();
}

void NodeApplicationServant::destroy() {
  std::unique_lock phase(mutex_, std::try_to_lock);
  if (!phase.owns_lock()) {
    {
      std::lock_guard processes(processes_mutex_);
      for (ChildProcess* process : processes_) process->stop(std::chrono::seconds(2));
    }
    phase.lock();  // the phase's calls to the stopped servers fail: it returns
  }
  tear_down_servers();
}

// shutdown() on a server; the error, or "" once it has exited cleanly. The
// server stops its ORB as it replies, so the reply may be lost with the
// connection (COMM_FAILURE "maybe completed"): that is no failure if the
// process then exits by itself with status 0.
std::string NodeApplicationServant::ask_to_exit(Server& server) {
  try {
    server.manager->shutdown();
    return "";
  } catch (const CORBA::SystemException&) {
    const std::string error = mwccm::current_exception_message();
    if (server.process->wait_for_exit(kServerExitGrace) && server.process->exited_with_success())
      return "";
    return "shutdown: " + error + "; the process " + server.process->exit_description();
  }
}

// A server that did not tear itself down (killed, crashed, or stopped by
// this node) could not undo its registrations: its node, which read its
// plan, removes them.
std::string NodeApplicationServant::remove_registrations_of(const std::string& locality) {
  for (CORBA::ULong l = 0; l < localities_.length(); ++l) {
    if (locality != localities_[l].name.in()) continue;
    for (CORBA::ULong i = 0; i < localities_[l].instances.length(); ++i) {
      const MwccmDeployment::InstancePlan& instance = localities_[l].instances[i];
      try {
        if (*instance.ior_file.in() != '\0')
          mwccm::unregister_reference(orb_.in(), "file:" + std::string(instance.ior_file.in()));
        if (*instance.naming.in() != '\0')
          mwccm::unregister_reference(orb_.in(), "naming:" + std::string(instance.naming.in()));
      } catch (const std::exception& e) {
        return e.what();
      }
    }
  }
  return "";
}

// Every server, last started first: teardown, shutdown, and the process
// stopped if it does not exit by itself. Errors are collected, not stopping
// the rest; the first is reported once everything is stopped.
void NodeApplicationServant::tear_down_servers() {
  std::string first_error, subject;
  const auto note = [&](const std::string& error, const std::string& locality) {
    if (first_error.empty() && !error.empty()) first_error = error, subject = locality;
  };
  while (!servers_.empty()) {
    Server& server = servers_.back();
    bool torn_down = false;  // by the server itself, registrations included
    if (server.process->exited()) {
      if (!server.process->stopped()) {  // ended by itself: killed, crashed
        note("its component server had ended: the process " + server.process->exit_description(),
             server.locality);
      }
    } else if (!CORBA::is_nil(server.manager.in())) {
      std::string error;
      try {
        server.manager->teardown();
        torn_down = true;
      } catch (const MwccmDeployment::DeploymentFailure& e) {
        error = e.message.in();
      } catch (const CORBA::SystemException&) {
        error = mwccm::current_exception_message();
        if (server.process->wait_for_exit(kServerExitGrace))  // gone as it was called: say how
          error =
              "its component server had ended: the process " + server.process->exit_description();
      }
      if (!server.process->exited()) {
        const std::string stop_error = ask_to_exit(server);
        if (error.empty()) error = stop_error;
      }
      note(error, server.locality);
    }
    server.process->stop();
    if (!torn_down) note(remove_registrations_of(server.locality), server.locality);
    {
      std::lock_guard processes(processes_mutex_);
      std::erase(processes_, server.process.get());
    }
    servers_.pop_back();
  }
  if (!first_error.empty()) throw failure("teardown", subject, first_error);
}

// ---- NodeManager ---------------------------------------------------------------

NodeManagerServant::NodeManagerServant(CORBA::ORB_ptr orb, NodeSettings settings)
    : orb_(CORBA::ORB::_duplicate(orb)),
      settings_(std::move(settings)),
      trusted_(settings_.artifact_directories) {}

MwccmDeployment::NodeApplication_ptr NodeManagerServant::prepare_plan(
    const char*, const MwccmDeployment::LocalityPlans& localities) {
  MwccmDeployment::LocalityPlans prepared = localities;
  for (CORBA::ULong l = 0; l < prepared.length(); ++l) {
    for (CORBA::ULong i = 0; i < prepared[l].instances.length(); ++i) {
      MwccmDeployment::InstancePlan& instance = prepared[l].instances[i];
      try {
        const std::string library = trusted_.resolve(instance.artifact.in());
        if (!library_exports(library, instance.home_entrypoint.in())) {
          throw std::runtime_error("artifact '" + std::string(instance.artifact.in()) + "' (" +
                                   library + ") has no entry point '" +
                                   instance.home_entrypoint.in() + "'");
        }
        instance.library = library.c_str();
      } catch (const std::runtime_error& e) {
        throw failure("prepare_plan", instance.name.in(),
                      "node '" + settings_.name + "': " + e.what());
      }
    }
  }
  auto* application = new NodeApplicationServant(orb_.in(), settings_, prepared);
  PortableServer::POA_var root = root_poa(orb_.in());
  PortableServer::ObjectId_var id = root->activate_object(application);
  {
    std::lock_guard lock(mutex_);
    applications_.push_back(application);  // keeps the servant's count
  }
  CORBA::Object_var reference = root->id_to_reference(id.in());
  return MwccmDeployment::NodeApplication::_narrow(reference.in());
}

void NodeManagerServant::destroy_all() {
  std::vector<NodeApplicationServant*> applications;
  {
    std::lock_guard lock(mutex_);
    applications.swap(applications_);
  }
  for (auto* application : applications) {
    try {
      application->destroy();
    } catch (const MwccmDeployment::DeploymentFailure&) {
      // Its processes are stopped all the same.
    }
    application->_remove_ref();
  }
}

void NodeManagerServant::shutdown() {
  destroy_all();
  orb_->shutdown(false);
}

}  // namespace mwccm::deployment
