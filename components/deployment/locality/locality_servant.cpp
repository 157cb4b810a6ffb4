// The locality manager's CORBA face (locality_servant.hpp).
#include <mwccm/deployment/locality_servant.hpp>

namespace mwccm::deployment {

LocalityServant::LocalityServant(CORBA::ORB_ptr orb, mwccm::ComponentServer& server)
    : server_(server), assembly_(orb, server) {}

MwccmDeployment::ProvidedReferences* LocalityServant::start_launch(
    const MwccmDeployment::LocalityPlan& plan) {
  return assembly_.start_launch(plan);
}

void LocalityServant::finish_launch(const MwccmDeployment::ProvidedReferences& references,
                                    CORBA::Boolean start) {
  assembly_.finish_launch(references, start);
}

void LocalityServant::start() { assembly_.start(); }

MwccmDeployment::Timings* LocalityServant::get_timings() { return assembly_.timings(); }

MwccmDeployment::ChannelCountersList* LocalityServant::get_channel_counters() {
  return assembly_.channel_counters();
}

void LocalityServant::teardown() { assembly_.teardown(); }

void LocalityServant::shutdown() {
  try {
    assembly_.teardown();
  } catch (const MwccmDeployment::DeploymentFailure&) {
    // Stopping anyway: the process's exit frees what teardown could not.
  }
  server_.shutdown();
}

}  // namespace mwccm::deployment
