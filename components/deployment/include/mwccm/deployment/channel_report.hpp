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

// Appends to `all` what the channels of `application`'s processes counted;
// nothing if the node does not answer (its teardown says so).
void collect_channel_counters(MwccmDeployment::ChannelCountersList& all,
                              MwccmDeployment::NodeApplication_ptr application);

}  // namespace mwccm::deployment
