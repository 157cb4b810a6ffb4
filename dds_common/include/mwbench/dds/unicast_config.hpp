// A Cyclone DDS domain configuration that keeps a participant on one
// interface: it sends and discovers only through the interface of
// `address`, without multicast, pinging participants by unicast at that
// address and at each of `peers` (the well-known ports of participant
// indices 0..max_participant_index at each). For dds_create_domain() or
// CYCLONEDDS_URI; for 127.0.0.1 without peers it says what
// drivers/cyclonedds/cyclonedds-loopback.xml says.
//
// Across hosts there is no multicast to discover by: the side that starts
// last (a client) names the others' addresses as peers, and each of them
// learns the newcomer from the participant announcement it receives, to
// which Cyclone answers directly.
#pragma once

#include <string>
#include <vector>

namespace mwbench::dds {

std::string unicast_config(const std::string& address, const std::vector<std::string>& peers = {},
                           int max_participant_index = 99);

}  // namespace mwbench::dds
