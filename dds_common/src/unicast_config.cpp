// A one-interface, unicast-only domain configuration (unicast_config.hpp).
#include <algorithm>
#include <mwbench/dds/unicast_config.hpp>

namespace mwbench::dds {

namespace {

// The participant's own address first, then every other one once.
std::string peer_elements(const std::string& address, const std::vector<std::string>& peers) {
  std::vector<std::string> listed = {address};
  for (const std::string& peer : peers) {
    if (std::find(listed.begin(), listed.end(), peer) == listed.end()) listed.push_back(peer);
  }
  std::string elements;
  for (const std::string& peer : listed) elements += "<Peer Address=\"" + peer + "\"/>";
  return elements;
}

}  // namespace

std::string unicast_config(const std::string& address, const std::vector<std::string>& peers,
                           int max_participant_index) {
  return "<General><Interfaces><NetworkInterface address=\"" + address +
         "\" multicast=\"false\"/></Interfaces><AllowMulticast>false</AllowMulticast></General>"
         "<Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>" +
         std::to_string(max_participant_index) + "</MaxAutoParticipantIndex><Peers>" +
         peer_elements(address, peers) + "</Peers></Discovery>";
}

}  // namespace mwbench::dds
