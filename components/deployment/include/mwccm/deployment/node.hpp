// mwccm-node's two CORBA objects (MwccmDeployment.idl): the NodeManager,
// which checks a node's part of a plan against the node's trusted artifact
// directories (prepare_plan), and the NodeApplication it returns, which
// spawns one mwccm-component-server per locality, waits for each to call
// back, and drives them through the launch phases. Spawning a server is
// timed here ("server_creation"); every other step in the server that does
// it. A failure names the phase and the locality or instance; destroy()
// tears down and stops every server this application started.
#pragma once

#include <MwccmDeployment.hh>
#include <chrono>
#include <memory>
#include <mutex>
#include <mwccm/deployment/artifacts.hpp>
#include <mwccm/deployment/child_process.hpp>
#include <mwccm/deployment/started_callback.hpp>
#include <mwccm/deployment/step_timer.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct NodeSettings {
  std::string name;
  std::string server_program;  // mwccm-component-server
  std::string server_host;     // where servers listen ("127.0.0.1")
  std::vector<std::string> artifact_directories;
  std::chrono::milliseconds callback_timeout{30'000};
  // The read end of the node's lifeline: every component server inherits it
  // and ends when it reads end-of-file, which is when the node has ended,
  // however (even SIGKILL: the kernel closes the node's write end). -1: none.
  int lifeline = -1;
};

class NodeApplicationServant final : public virtual POA_MwccmDeployment::NodeApplication {
 public:
  NodeApplicationServant(CORBA::ORB_ptr orb, const NodeSettings& settings,
                         MwccmDeployment::LocalityPlans localities);
  ~NodeApplicationServant() override;

  MwccmDeployment::ProvidedReferences* start_launch() override;
  void finish_launch(const MwccmDeployment::ProvidedReferences& references,
                     CORBA::Boolean start) override;
  void start() override;
  MwccmDeployment::Timings* get_timings() override;
  MwccmDeployment::ChannelCountersList* get_channel_counters() override;
  // Tears every server down in order when no phase runs. While one runs (a
  // component that never returns from its configuration, say), first stops
  // every server process at once, so that the phase fails and returns: a
  // launcher that gives up, or SIGTERM, is never stuck behind it.
  void destroy() override;

 private:
  struct Server {
    std::string locality;
    std::unique_ptr<ChildProcess> process;
    MwccmDeployment::Locality_var manager;
  };
  std::vector<std::string> server_arguments(const MwccmDeployment::LocalityPlan& plan,
                                            const std::string& callback) const;
  void tear_down_servers();  // with mutex_ held
  // Removes the registration files and names of that locality's instances;
  // the error, or "".
  std::string remove_registrations_of(const std::string& locality);
  static std::string ask_to_exit(Server& server);

  CORBA::ORB_var orb_;
  NodeSettings settings_;
  MwccmDeployment::LocalityPlans localities_;
  StartedCallbackServant* callback_;  // counted; activated in the root POA
  std::string callback_ior_;
  StepTimer timer_;
  std::mutex mutex_;  // one phase at a time
  std::vector<Server> servers_;
  // The server processes, for destroy() while a phase holds mutex_.
  std::mutex processes_mutex_;
  std::vector<ChildProcess*> processes_;
};

class NodeManagerServant final : public virtual POA_MwccmDeployment::NodeManager {
 public:
  NodeManagerServant(CORBA::ORB_ptr orb, NodeSettings settings);

  MwccmDeployment::NodeApplication_ptr prepare_plan(
      const char* plan_label, const MwccmDeployment::LocalityPlans& localities) override;
  void shutdown() override;
  // Destroys every application it prepared (SIGTERM, shutdown); idempotent.
  void destroy_all();

 private:
  CORBA::ORB_var orb_;
  NodeSettings settings_;
  TrustedDirectories trusted_;
  std::mutex mutex_;
  std::vector<NodeApplicationServant*> applications_;  // counted
};

}  // namespace mwccm::deployment
