// The plan launcher and execution manager in one (mwccm-deploy; DAnCE's
// dance_plan_launcher with its execution manager): reads and checks a plan,
// splits it per node and locality, finds the nodes (a node map) or starts
// them here, and drives every node through prepare_plan → start_launch →
// finish_launch → start. A failure in any phase destroys what was created
// and stops what was started, and names the phase, the node and the
// instance. The launcher times the plan's reading; every other step is timed
// in the process that performs it and collected here.
#pragma once

#include <omniORB4/CORBA.h>

#include <MwccmDeployment.hh>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <mwccm/deployment/attribute_override.hpp>
#include <mwccm/deployment/child_process.hpp>
#include <mwccm/deployment/node_map.hpp>
#include <mwccm/deployment/started_callback.hpp>
#include <mwccm/deployment/step_timer.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct LaunchOptions {
  std::string plan_file;
  std::string node_map;                           // "" : start every node the plan names here
  std::vector<std::string> artifact_directories;  // for nodes started here; interfaces too
  std::vector<std::string> interface_directories;
  std::string node_program;  // mwccm-node
  std::chrono::milliseconds node_timeout{30'000};
  // Where the output of nodes started here goes: "" for this process's
  // output; a prefix for "<prefix><node>.log" (nodes left running after the
  // launcher exits must not hold its output open).
  std::string node_log_prefix;
  std::vector<AttributeOverride> overrides;  // --set, applied to the plan as read
};

// What a phase failure says: the phase, the node, the subject (locality,
// instance or port) and why.
class LaunchFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Launcher {
 public:
  Launcher(CORBA::ORB_ptr orb, LaunchOptions options);
  ~Launcher();  // destroys and stops whatever is still deployed

  // Reads, checks and deploys. PlanError (bad plan or node map, or a
  // `file:` reference of the map that is no IOR file: nothing was created),
  // LaunchFailure (a phase failed: everything created was undone).
  void deploy();
  // Destroys every node application, then stops the nodes started here;
  // idempotent. LaunchFailure with the first error, after trying everything.
  void teardown();
  // From another thread while deploy() runs (SIGTERM): destroys the node
  // applications prepared so far (a node stops its servers at once if a
  // phase is stuck) and stops the nodes started here, so that deploy() fails
  // soon and undoes the rest; it then throws LaunchFailure. Returns false
  // when deploy() has made nothing yet (it reads, checks, looks nodes up)
  // and will make nothing: the caller may end the process at once, however
  // long the reading or a lookup would take.
  bool interrupt();
  // Leaves the nodes this launcher started running when it exits (a plan
  // launched and left, torn down later from the state).
  void detach_nodes();

  // After deploy(): the reference a process of the application provided for
  // a connection across processes (D&C's providedReference), to
  // `instance`.`port`; nil if no such connection crosses processes.
  CORBA::Object_ptr provided_reference(const std::string& instance, const std::string& port) const;

  // Every timed step so far, from every process; and the launcher's own.
  MwccmDeployment::Timings* timings();
  // What every process's event channel did so far (a node that does not
  // answer: none of its).
  MwccmDeployment::ChannelCountersList* channel_counters();
  // The state a later `--teardown` needs: JSON.
  std::string state() const;
  // The log files of the nodes started here (with LaunchOptions::node_log_prefix).
  const std::vector<std::string>& node_logs() const noexcept { return node_logs_; }
  // Tears down what a state describes; first hands `counted` what the
  // channels of its processes did. Returns what could not be reached
  // because it is gone (a node that no longer answers: nothing of it is
  // left to undo), one line each; LaunchFailure if a node that answers
  // failed (the state is still needed to try again).
  static std::vector<std::string> teardown_state(
      CORBA::ORB_ptr orb, const std::string& state_json,
      const std::function<void(const MwccmDeployment::ChannelCountersList&)>& counted);
  // The log files of the nodes a state's launcher started.
  static std::vector<std::string> logs_of_state(const std::string& state_json);

 private:
  struct Node {
    std::string name;
    std::unique_ptr<ChildProcess> process;  // null: from the node map
    MwccmDeployment::NodeManager_var manager;
    MwccmDeployment::NodeApplication_var application;
  };
  void find_nodes(const std::vector<std::string>& names);
  // From here on what deploy() makes is undone on a stop; LaunchFailure if
  // a stop came first.
  void begin_making();
  void start_node(const std::string& name);
  [[noreturn]] void fail(const std::string& phase, const std::string& node);
  void check_interrupted(const std::string& phase);  // between phases

  CORBA::ORB_var orb_;
  LaunchOptions options_;
  NodeMap node_map_;  // of the last deploy(), its file: references read
  StepTimer timer_{"launcher"};
  std::vector<std::string> node_logs_;
  StartedCallbackServant* callback_ = nullptr;  // counted
  std::string callback_ior_;
  std::mutex mutex_;
  std::vector<Node> nodes_;
  MwccmDeployment::ProvidedReferences provided_;  // of the last deploy()
  // What interrupt() acts on, apart from nodes_ (which deploy() changes).
  std::mutex interrupt_mutex_;
  bool interrupted_ = false;
  bool making_ = false;  // deploy() may have made something: a node, an application
  std::vector<MwccmDeployment::NodeApplication_var> applications_;
  std::vector<ChildProcess*> node_processes_;
};

}  // namespace mwccm::deployment
