// A Cyclone DDS domain configuration that keeps a participant on one
// interface: it sends and discovers only through the interface of
// `address`, without multicast, pinging participants by unicast at that
// address (the well-known ports of participant indices
// 0..max_participant_index). For dds_create_domain(); for 127.0.0.1 it says
// what drivers/cyclonedds/cyclonedds-loopback.xml says.
#pragma once

#include <string>

namespace mwbench::dds {

std::string unicast_config(const std::string& address, int max_participant_index = 99);

}  // namespace mwbench::dds
