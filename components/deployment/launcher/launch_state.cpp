// A deployment left running (mwccm-deploy --state): the state it is
// described by, and tearing it down from that state in a later process
// (launcher.hpp).
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <mwccm/deployment/channel_report.hpp>
#include <mwccm/deployment/launcher.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/user_input.hpp>
#include <nlohmann/json.hpp>

namespace mwccm::deployment {
namespace {

// Whether `pid` is still an mwccm-node (and not another process that got its number).
bool is_node_process(int pid) {
  std::ifstream command("/proc/" + std::to_string(pid) + "/cmdline");
  std::string program;
  std::getline(command, program, '\0');
  return program.size() >= 10 && program.compare(program.size() - 10, 10, "mwccm-node") == 0;
}

}  // namespace

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
      collect_channel_counters(all, MwccmDeployment::NodeApplication::_narrow(object.in()));
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
