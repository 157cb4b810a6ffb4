// How a plan's connection is made, read in one place from its
// deployRequirements and from its consumer's filter (docs/deployment.md
// section 10): the check, the locality plans and the plan compiler all ask
// here.
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>

namespace mwccm::deployment {

struct ConnectionSettings {
  bool plain_cxx = false;  // Local_Interface: as plain C++ objects
  std::string delivery;    // events: "direct" (the default) or "channel"
  std::string gateway;     // a channel across processes: "iiop" (the default), "udp", ...
  std::string filter;      // the consumer's mwccm.EventFilter.<sink>, or ""
};

// Read as written: the check says whether the values are ones mwccm knows.
ConnectionSettings connection_settings(const Plan& plan, const Connection& connection);

}  // namespace mwccm::deployment
