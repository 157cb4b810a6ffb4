// The Locality interface of a component server process (the locality
// manager): MwccmDeployment::Locality over a LocalityAssembly. shutdown()
// tears down what is left and stops the server.
#pragma once

#include <MwccmDeployment.hh>
#include <mwccm/component_server.hpp>
#include <mwccm/deployment/locality_assembly.hpp>

namespace mwccm::deployment {

class LocalityServant final : public virtual POA_MwccmDeployment::Locality {
 public:
  LocalityServant(CORBA::ORB_ptr orb, mwccm::ComponentServer& server);

  MwccmDeployment::ProvidedReferences* start_launch(
      const MwccmDeployment::LocalityPlan& plan) override;
  void finish_launch(const MwccmDeployment::ProvidedReferences& references,
                     CORBA::Boolean start) override;
  void start() override;
  MwccmDeployment::Timings* get_timings() override;
  MwccmDeployment::ChannelCountersList* get_channel_counters() override;
  void teardown() override;
  void shutdown() override;

 private:
  mwccm::ComponentServer& server_;
  LocalityAssembly assembly_;
};

}  // namespace mwccm::deployment
