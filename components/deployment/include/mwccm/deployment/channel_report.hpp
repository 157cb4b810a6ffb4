// What the event channels of a deployment did, as mwccm-deploy says it at
// teardown (docs/events.md, "Once per sink"): a line per process whose
// channel carried anything, and one per supplier of another process whose
// events came twice, late, or not at all.
#pragma once

#include <MwccmDeployment.hh>
#include <string>
#include <vector>

namespace mwccm::deployment {

std::vector<std::string> channel_report(const MwccmDeployment::ChannelCountersList& counted);

}  // namespace mwccm::deployment
