// One component server process's part of a plan, assembled in that process
// (the locality manager of D&C, DAnCE and DnCX11): the same steps whether the
// process was spawned by a node (dynamic deployment) or is a program with the
// plan compiled in (static deployment). Every step is timed where it runs
// (StepTimer). A failure is a DeploymentFailure naming the phase and the
// instance or port; teardown() then removes what was made, and may be called
// again.
#pragma once

#include <omniORB4/CORBA.h>

#include <MwccmDeployment.hh>
#include <chrono>
#include <map>
#include <memory>
#include <mwccm/assembly.hpp>
#include <mwccm/component_server.hpp>
#include <mwccm/dds_channel.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/deployment/step_timer.hpp>
#include <set>
#include <string>

namespace mwccm::deployment {

// How long finish_launch waits for the DDS readers and writers of the
// plan's `dds` connections to match (docs/deployment.md section 10).
inline constexpr std::chrono::seconds kDdsMatchTimeout{10};

// A name no other launch has (this process's id and the time): the
// partition of a launch's DDS topics (LocalityPlan::launch).
std::string launch_name();

class LocalityAssembly {
 public:
  LocalityAssembly(CORBA::ORB_ptr orb, mwccm::ComponentServer& server);

  // Container, homes (each implementation's once), components, attributes,
  // registrations, and the connections whose provider is here; returns the
  // ends other processes connect to.
  MwccmDeployment::ProvidedReferences* start_launch(const MwccmDeployment::LocalityPlan& plan);
  // Connects to the other processes' ends (and external references), waits
  // until every DDS writer and reader of the plan matches its peers (so that
  // no event is published before its readers take it); then, with `start`,
  // activates.
  void finish_launch(const MwccmDeployment::ProvidedReferences& references, bool start);
  void start();  // configuration_complete, then ccm_activate, every component
  void teardown();
  MwccmDeployment::Timings* timings() const { return timer_.timings(); }
  MwccmDeployment::ChannelCountersList* channel_counters() const;
  StepTimer& timer() noexcept { return timer_; }

 private:
  [[noreturn]] void fail(const char* phase, const std::string& subject) const;
  void connect_here(const MwccmDeployment::ConnectionPlan& connection);
  void connect_there(const MwccmDeployment::ConnectionPlan& connection,
                     const MwccmDeployment::ProvidedReferences& references);
  void route_through_channel(const MwccmDeployment::ConnectionPlan& connection,
                             const MwccmDeployment::ProvidedReferences& references);
  // The delivery strategy's wiring of this assembly (mwccm/delivery.hpp),
  // by the strategy's name, the connection's gateway and its topic.
  mwccm::DeliveryWiring& wiring(const std::string& delivery, const std::string& gateway,
                                const MwccmDeployment::DdsTopic& topic);

  CORBA::ORB_var orb_;
  mwccm::ComponentServer& server_;
  MwccmDeployment::LocalityPlan plan_;
  mwccm::Assembly assembly_;
  StepTimer timer_;
  std::map<std::string, std::string> homes_;  // entry point → home id
  std::vector<std::string> registrations_;    // targets to unregister at teardown
  bool launched_ = false;
};

}  // namespace mwccm::deployment
