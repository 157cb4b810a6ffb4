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
  std::string delivery;    // events: "direct" (the default), "channel" or "dds"
  std::string gateway;     // a channel across processes: "iiop" (the default), "udp", ...
  std::string filter;      // the consumer's mwccm.EventFilter.<sink>, or ""
  // dds: the topic (default: the source's "INSTANCE/PORT", a DDS topic name
  // having no '.'), "reliable" (the default) or "best_effort", and the
  // history depth as written ("" for KEEP_ALL, the default).
  std::string topic;
  std::string reliability;
  std::string history_depth;
};

// Read as written: the check says whether the values are ones mwccm knows.
// `plan` finds the connection's instances (their names, the consumer's filter).
ConnectionSettings connection_settings(const PlanIndex& plan, const Connection& connection);

}  // namespace mwccm::deployment
