// What every DDS driver describes, and the fan-out's subscriber processes read
// from their endpoints (dds_driver_roles.hpp).
#include "common/dds_driver_roles.hpp"

#include "common/dds_endpoint.hpp"

namespace mwbench::common {

FanoutPeers read_fanout_peers(const std::vector<std::string>& endpoints) {
  FanoutPeers peers;
  for (const std::string& text : endpoints) {
    const FanoutEndpoint e = FanoutEndpoint::parse(text);
    if (!peers.partitions.empty() && e.domain != peers.domain) {
      throw std::runtime_error("subscriber processes in domains " + std::to_string(peers.domain) +
                               " and " + std::to_string(e.domain) + ": a fan-out needs one");
    }
    peers.domain = e.domain;
    peers.partitions.push_back(e.partition);
    peers.addresses.push_back(e.address);
  }
  return peers;
}

Description dds_description(const std::string& driver, const std::string& middleware,
                            const std::string& version, const std::string& wait_help) {
  Description d(driver, middleware, version);
  d.operations = {{"roundtrip", false}, {"octets", true}, {kFanoutOperation, true}};
  d.options = {
      {"wait", wait_help},
      {"verify",
       "the server checks every payload byte and the pong says whether it was intact: "
       "0 (default) or 1"},
  };
  d.max_threads = 1;
  d.max_servants = 1;
  d.max_subscribers = 64;
  return d;
}

}  // namespace mwbench::common
