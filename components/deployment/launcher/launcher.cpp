// The launcher (launcher.hpp).
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <mwccm/deployment/artifacts.hpp>
#include <mwccm/deployment/launcher.hpp>
#include <mwccm/deployment/locality_plans.hpp>
#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace mwccm::deployment {
namespace {

PortableServer::POA_ptr root_poa(CORBA::ORB_ptr orb) {
  CORBA::Object_var object = orb->resolve_initial_references("RootPOA");
  return PortableServer::POA::_narrow(object.in());
}

CORBA::Object_ptr resolve(CORBA::ORB_ptr orb, const std::string& reference) {
  if (reference.rfind("naming:", 0) == 0) return mwccm::resolve_reference(orb, reference);
  return orb->string_to_object(reference.c_str());
}

// Whether `pid` is still an mwccm-node (and not another process that got its number).
bool is_node_process(int pid) {
  std::ifstream command("/proc/" + std::to_string(pid) + "/cmdline");
  std::string program;
  std::getline(command, program, '\0');
  return program.size() >= 10 && program.compare(program.size() - 10, 10, "mwccm-node") == 0;
}

void append(MwccmDeployment::Timings& all, const MwccmDeployment::Timings& more) {
  const CORBA::ULong first = all.length();
  all.length(first + more.length());
  for (CORBA::ULong i = 0; i < more.length(); ++i) all[first + i] = more[i];
}

}  // namespace

Launcher::Launcher(CORBA::ORB_ptr orb, LaunchOptions options)
    : orb_(CORBA::ORB::_duplicate(orb)),
      options_(std::move(options)),
      callback_(new StartedCallbackServant) {
  PortableServer::POA_var root = root_poa(orb);
  PortableServer::POAManager_var manager = root->the_POAManager();
  manager->activate();
  PortableServer::ObjectId_var id = root->activate_object(callback_);
  CORBA::Object_var reference = root->id_to_reference(id.in());
  CORBA::String_var ior = orb->object_to_string(reference.in());
  callback_ior_ = ior.in();
}

Launcher::~Launcher() {
  try {
    teardown();
  } catch (const std::exception&) {
    // Stopping anyway: the nodes started here are stopped below.
  }
  callback_->_remove_ref();
}

void Launcher::fail(const std::string& phase, const std::string& node) {
  std::string message;
  try {
    throw;
  } catch (const MwccmDeployment::DeploymentFailure& e) {
    message = phase + " failed on node " + mwccm::quote(node) + ", " + e.subject.in() + ": " +
              e.message.in();
  } catch (...) {
    message =
        phase + " failed on node " + mwccm::quote(node) + ": " + mwccm::current_exception_message();
  }
  try {
    teardown();
  } catch (const LaunchFailure& e) {
    message += "\n(and undoing it: " + std::string(e.what()) + ")";
  }
  throw LaunchFailure(message);
}

void Launcher::start_node(const std::string& name) {
  std::vector<std::string> arguments{options_.node_program, "--name", name, "--callback",
                                     callback_ior_};
  for (const auto& directory : options_.artifact_directories) {
    arguments.insert(arguments.end(), {"--artifacts", directory});
  }
  Node node{name, nullptr, nullptr, nullptr};
  const std::uint64_t begin = monotonic_ns();
  const std::string log =
      options_.node_log_prefix.empty() ? "" : options_.node_log_prefix + name + ".log";
  if (!log.empty()) node_logs_.push_back(log);
  node.process = std::make_unique<ChildProcess>(arguments, log);
  {
    std::lock_guard lock(interrupt_mutex_);
    if (interrupted_) node.process->stop();
    node_processes_.push_back(node.process.get());
  }
  nodes_.push_back(std::move(node));
  CORBA::Object_var reference =
      callback_->wait_for(name, *nodes_.back().process, options_.node_timeout);
  timer_.record("node_start", name, begin, monotonic_ns());
  nodes_.back().manager = MwccmDeployment::NodeManager::_narrow(reference.in());
}

void Launcher::begin_making() {
  std::lock_guard lock(interrupt_mutex_);
  if (making_) return;
  if (interrupted_) throw LaunchFailure("interrupted (SIGTERM or SIGINT) before anything was made");
  making_ = true;
}

void Launcher::find_nodes(const std::vector<std::string>& names) {
  if (options_.node_map.empty()) {
    begin_making();
    for (const auto& name : names) {
      try {
        start_node(name);
      } catch (...) {
        fail("node start", name);
      }
    }
    return;
  }
  for (const auto& name : names) {
    const auto& [reference, line] = node_map_.at(name);  // check_plan made sure it is there
    try {
      CORBA::Object_var object = resolve(orb_.in(), reference);
      Node node{name, nullptr, MwccmDeployment::NodeManager::_narrow(object.in()), nullptr};
      if (CORBA::is_nil(node.manager.in()))
        throw mwccm::Error(mwccm::quote(reference) + " is not a NodeManager");
      nodes_.push_back(std::move(node));
    } catch (...) {
      fail("node lookup (" + options_.node_map + ":" + std::to_string(line) + ")", name);
    }
  }
}

void Launcher::deploy() {
  std::lock_guard lock(mutex_);
  const std::uint64_t begin = monotonic_ns();
  Plan plan = read_plan(options_.plan_file);
  timer_.record("plan_parsing", options_.plan_file, begin, monotonic_ns());
  try {
    apply_overrides(plan, options_.overrides);
  } catch (const std::invalid_argument& e) {
    throw PlanError({options_.plan_file, 0}, e.what());
  }

  const std::uint64_t check_begin = monotonic_ns();
  InterfaceCatalog interfaces;
  for (const auto& directory : options_.interface_directories) interfaces.add_directory(directory);
  for (const auto& directory : options_.artifact_directories) interfaces.add_directory(directory);
  complete_plan(plan, interfaces);
  std::set<std::string> mapped;
  if (!options_.node_map.empty()) {
    node_map_ = read_node_references(options_.node_map);
    for (const auto& [name, where] : node_map_) mapped.insert(name);
  }
  // Nodes started here trust the --artifacts directories: an artifact outside them is a
  // plan error found here, before anything starts (a mapped node checks its own).
  std::optional<TrustedDirectories> trusted;
  if (options_.node_map.empty()) trusted.emplace(options_.artifact_directories);
  check_plan(plan, interfaces,
             {trusted ? &*trusted : nullptr, options_.node_map.empty() ? nullptr : &mapped});
  std::vector<MwccmDeployment::LocalityPlan> localities = make_locality_plans(orb_.in(), plan);
  timer_.record("plan_check", options_.plan_file, check_begin, monotonic_ns());

  // Nodes in the order the plan first names them.
  std::vector<std::string> names;
  std::map<std::string, MwccmDeployment::LocalityPlans> per_node;
  for (auto& locality : localities) {
    const std::string node = locality.node.in();
    if (per_node.count(node) == 0) names.push_back(node);
    auto& plans = per_node[node];
    plans.length(plans.length() + 1);
    plans[plans.length() - 1] = locality;
  }
  find_nodes(names);
  begin_making();  // the nodes of a map: prepare_plan makes the first things
  for (auto& node : nodes_) {
    try {
      node.application = node.manager->prepare_plan(plan.label.c_str(), per_node[node.name]);
      std::lock_guard lock(interrupt_mutex_);
      if (interrupted_) throw LaunchFailure("interrupted");
      applications_.push_back(MwccmDeployment::NodeApplication::_duplicate(node.application.in()));
    } catch (...) {
      fail("prepare_plan", node.name);
    }
  }
  MwccmDeployment::ProvidedReferences all;
  check_interrupted("start_launch");
  for (auto& node : nodes_) {
    try {
      MwccmDeployment::ProvidedReferences_var provided = node.application->start_launch();
      const CORBA::ULong first = all.length();
      all.length(first + provided->length());
      for (CORBA::ULong i = 0; i < provided->length(); ++i) all[first + i] = provided[i];
    } catch (...) {
      fail("start_launch", node.name);
    }
  }
  check_interrupted("finish_launch");
  for (auto& node : nodes_) {
    try {
      node.application->finish_launch(all, false);
    } catch (...) {
      fail("finish_launch", node.name);
    }
  }
  check_interrupted("start");
  for (auto& node : nodes_) {
    try {
      node.application->start();
    } catch (...) {
      fail("start", node.name);
    }
  }
  timer_.record("total", options_.plan_file, begin, monotonic_ns());
  provided_ = all;
}

CORBA::Object_ptr Launcher::provided_reference(const std::string& instance,
                                               const std::string& port) const {
  for (CORBA::ULong i = 0; i < provided_.length(); ++i) {
    const MwccmDeployment::ProvidedReference& end = provided_[i];
    if (instance == end.end.instance.in() && port == end.end.port.in())
      return CORBA::Object::_duplicate(end.reference.in());
  }
  return CORBA::Object::_nil();
}

void Launcher::check_interrupted(const std::string& phase) {
  bool interrupted = false;
  {
    std::lock_guard lock(interrupt_mutex_);
    interrupted = interrupted_;
  }
  if (!interrupted) return;
  try {
    throw LaunchFailure("interrupted (SIGTERM or SIGINT)");
  } catch (...) {
    fail(phase, nodes_.empty() ? "" : nodes_.front().name);
  }
}

bool Launcher::interrupt() {
  std::vector<MwccmDeployment::NodeApplication_var> applications;
  {
    std::lock_guard lock(interrupt_mutex_);
    interrupted_ = true;
    if (!making_) return false;
    applications = applications_;
  }
  for (auto& application : applications) {
    try {
      application->destroy();
    } catch (...) {
      // The node is stopped below, or deploy()'s own undoing reports it.
    }
  }
  // Under the lock: teardown() forgets a process (and then destroys it) only
  // after taking it, so none is stopped here once gone.
  std::lock_guard lock(interrupt_mutex_);
  for (ChildProcess* process : node_processes_) process->stop();
  return true;
}

void Launcher::teardown() {
  provided_.length(0);
  std::string first_error;
  while (!nodes_.empty()) {
    Node& node = nodes_.back();
    try {
      if (!CORBA::is_nil(node.application.in())) node.application->destroy();
    } catch (const MwccmDeployment::DeploymentFailure& e) {
      if (first_error.empty())
        first_error =
            "node " + mwccm::quote(node.name) + ", " + e.subject.in() + ": " + e.message.in();
    } catch (const CORBA::Exception&) {
      if (first_error.empty())
        first_error = "node " + mwccm::quote(node.name) + ": " + mwccm::current_exception_message();
    }
    if (node.process) {
      try {
        if (!node.process->exited()) node.manager->shutdown();
      } catch (const CORBA::Exception&) {
        // It is stopped below all the same.
      }
      node.process->stop();
      std::lock_guard lock(interrupt_mutex_);
      std::erase(node_processes_, node.process.get());
    }
    nodes_.pop_back();
  }
  if (!first_error.empty()) throw LaunchFailure("teardown: " + first_error);
}

void Launcher::detach_nodes() {
  for (auto& node : nodes_) {
    if (node.process) node.process->release();
  }
}

MwccmDeployment::Timings* Launcher::timings() {
  MwccmDeployment::Timings_var all = timer_.timings();
  for (auto& node : nodes_) {
    if (CORBA::is_nil(node.application.in())) continue;
    MwccmDeployment::Timings_var timings = node.application->get_timings();
    append(all.inout(), timings.in());
  }
  return all._retn();
}

namespace {
void append_counters(MwccmDeployment::ChannelCountersList& all,
                     MwccmDeployment::NodeApplication_ptr application) {
  try {
    MwccmDeployment::ChannelCountersList_var counted = application->get_channel_counters();
    const CORBA::ULong first = all.length();
    all.length(first + counted->length());
    for (CORBA::ULong c = 0; c < counted->length(); ++c) all[first + c] = counted[c];
  } catch (const CORBA::SystemException&) {
    // A node gone: its teardown reports it.
  }
}
}  // namespace

MwccmDeployment::ChannelCountersList* Launcher::channel_counters() {
  MwccmDeployment::ChannelCountersList_var all = new MwccmDeployment::ChannelCountersList;
  for (auto& node : nodes_) {
    if (!CORBA::is_nil(node.application.in())) append_counters(all.inout(), node.application.in());
  }
  return all._retn();
}

std::string Launcher::state() const {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : nodes_) {
    CORBA::String_var manager = orb_->object_to_string(node.manager.in());
    CORBA::String_var application = orb_->object_to_string(node.application.in());
    nodes.push_back({{"name", node.name},
                     {"manager", manager.in()},
                     {"application", application.in()},
                     {"pid", node.process ? node.process->pid() : 0}});
  }
  return nlohmann::json{{"plan", options_.plan_file},
                        {"nodes", nodes},
                        {"log_prefix", options_.node_log_prefix}}
             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

std::vector<std::string> Launcher::teardown_state(
    CORBA::ORB_ptr orb, const std::string& state_json,
    const std::function<void(const MwccmDeployment::ChannelCountersList&)>& counted) {
  const nlohmann::json state = nlohmann::json::parse(state_json);
  std::string first_error;
  std::vector<std::string> gone;
  const auto& nodes = state.at("nodes");
  MwccmDeployment::ChannelCountersList all;
  for (const auto& node : nodes) {
    try {
      CORBA::Object_var object =
          orb->string_to_object(node.at("application").get<std::string>().c_str());
      append_counters(all, MwccmDeployment::NodeApplication::_narrow(object.in()));
    } catch (const CORBA::SystemException&) {
      // A node gone: its teardown below reports it.
    }
  }
  counted(all);
  for (auto node = nodes.rbegin(); node != nodes.rend(); ++node) {
    const std::string name = node->at("name");
    try {
      CORBA::Object_var object =
          orb->string_to_object(node->at("application").get<std::string>().c_str());
      MwccmDeployment::NodeApplication_var application =
          MwccmDeployment::NodeApplication::_narrow(object.in());
      application->destroy();
    } catch (const MwccmDeployment::DeploymentFailure& e) {
      if (first_error.empty())
        first_error = "node " + mwccm::quote(name) + ", " + e.subject.in() + ": " + e.message.in();
    } catch (const CORBA::OBJECT_NOT_EXIST&) {
      // Already destroyed: teardown may run twice.
    } catch (const CORBA::TRANSIENT&) {
      gone.push_back("node " + mwccm::quote(name) +
                     " does not answer (TRANSIENT): it has ended, and its " +
                     "component servers with it");
    } catch (const CORBA::COMM_FAILURE&) {
      gone.push_back("node " + mwccm::quote(name) +
                     " does not answer (COMM_FAILURE): it has ended, and " +
                     "its component servers with it");
    } catch (const CORBA::Exception&) {
      if (first_error.empty())
        first_error = "node " + mwccm::quote(name) + ": " + mwccm::current_exception_message();
    }
    const int pid = node->at("pid");
    if (pid > 0 && is_node_process(pid)) {
      // Watched before it is asked to stop, so that its exit cannot be missed.
      const int watch = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
      try {
        CORBA::Object_var object =
            orb->string_to_object(node->at("manager").get<std::string>().c_str());
        MwccmDeployment::NodeManager::_narrow(object.in())->shutdown();
      } catch (const CORBA::Exception&) {
        kill(pid, SIGTERM);  // unreachable but running: its signal handler cleans up
      }
      if (watch >= 0) {
        pollfd exited{watch, POLLIN, 0};
        if (poll(&exited, 1, 30'000) == 0) kill(pid, SIGKILL);
        close(watch);
      }
    }
  }
  if (!first_error.empty()) throw LaunchFailure("teardown: " + first_error);
  return gone;
}

std::vector<std::string> Launcher::logs_of_state(const std::string& state_json) {
  const nlohmann::json state = nlohmann::json::parse(state_json);
  std::vector<std::string> logs;
  const std::string prefix = state.value("log_prefix", "");
  if (prefix.empty()) return logs;
  for (const auto& node : state.at("nodes")) {
    if (node.at("pid").get<int>() > 0)
      logs.push_back(prefix + node.at("name").get<std::string>() + ".log");
  }
  return logs;
}

}  // namespace mwccm::deployment
