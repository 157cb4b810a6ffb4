// A UDP participant's addresses (fastdds_network.hpp).
#include "fastdds_network.hpp"

#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>
#include <fastrtps/utils/IPLocator.h>

#include <algorithm>
#include <memory>

#include "mwbench/dds/confine.hpp"

namespace fastdds_driver {

namespace {

using eprosima::fastdds::rtps::UDPv4TransportDescriptor;
using eprosima::fastrtps::rtps::IPLocator;
using eprosima::fastrtps::rtps::Locator_t;
using eprosima::fastrtps::rtps::LocatorList_t;

// The UDPv4 transports of `qos`, each replaced by a copy whitelisting
// `address` alone (the profile's own descriptor stays as loaded). Returns
// whether there was one.
bool whitelist(eprosima::fastdds::dds::DomainParticipantQos& qos, const std::string& address) {
  bool found = false;
  for (auto& transport : qos.transport().user_transports) {
    const auto udp = std::dynamic_pointer_cast<UDPv4TransportDescriptor>(transport);
    if (!udp) continue;
    auto placed = std::make_shared<UDPv4TransportDescriptor>(*udp);
    placed->interfaceWhiteList = {address};
    transport = placed;
    found = true;
  }
  return found;
}

// Every locator of `list` at `address`, port and kind kept.
void move_to(LocatorList_t& list, const std::string& address) {
  for (Locator_t& locator : list) IPLocator::setIPv4(locator, address);
}

// One locator per address, each as the profile's first (a port of 0: the
// well-known ports of participant ids 0..maxInitialPeersRange).
void set_peers(LocatorList_t& list, const std::vector<std::string>& addresses) {
  const Locator_t model = list.empty() ? Locator_t() : *list.begin();
  list.clear();
  for (const std::string& address : addresses) {
    Locator_t peer = model;
    IPLocator::setIPv4(peer, address);
    list.push_back(peer);
  }
}

}  // namespace

void Network::place(eprosima::fastdds::dds::DomainParticipantQos& qos) const {
  if (!whitelist(qos, address)) return;
  mwbench::dds::confine_to(address);
  move_to(qos.wire_protocol().builtin.metatrafficUnicastLocatorList, address);
  move_to(qos.wire_protocol().default_unicast_locator_list, address);
  std::vector<std::string> addresses = {address};
  for (const std::string& peer : peers) {
    if (std::find(addresses.begin(), addresses.end(), peer) == addresses.end()) {
      addresses.push_back(peer);
    }
  }
  set_peers(qos.wire_protocol().builtin.initialPeersList, addresses);
}

}  // namespace fastdds_driver
