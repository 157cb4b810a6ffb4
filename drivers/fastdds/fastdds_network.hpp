// Where a UDP participant of the fastdds driver is on the network: its
// address (--bind) and the addresses it discovers others at.
//
// The udp profiles of fastdds-loopback.xml say 127.0.0.1 for both: the
// transport's interface whitelist, the unicast locators (discovery and user
// traffic) and the initial peers. A participant is made from the profile's
// QoS with those addresses replaced by --bind, and, on a client, its
// servers' addresses added as initial peers: there is no multicast to
// discover a server on another host by, so the client announces itself to
// it, and the server learns the client from that announcement. The
// shared-memory profile has no address: it is left as it is.
#pragma once

#include <fastdds/dds/domain/qos/DomainParticipantQos.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fastdds_driver {

struct Network {
  std::string address = "127.0.0.1";  // --bind
  std::vector<std::string> peers;     // a client's servers (its own address is one anyway)

  // Whitelist, locators and initial peers of a UDPv4 participant's `qos` on
  // `address`, with `peers` as initial peers too. Confines the process's
  // sockets to `address` (mwbench/dds/confine.hpp). A QoS without a UDPv4
  // transport is left unchanged.
  void place(eprosima::fastdds::dds::DomainParticipantQos& qos) const;

  nlohmann::json to_json() const { return {{"address", address}, {"peers", peers}}; }
};

}  // namespace fastdds_driver
