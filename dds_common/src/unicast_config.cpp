// A one-interface, unicast-only domain configuration (unicast_config.hpp).
#include <mwbench/dds/unicast_config.hpp>

namespace mwbench::dds {

std::string unicast_config(const std::string& address, int max_participant_index) {
  return "<General><Interfaces><NetworkInterface address=\"" + address +
         "\" multicast=\"false\"/></Interfaces><AllowMulticast>false</AllowMulticast></General>"
         "<Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>" +
         std::to_string(max_participant_index) +
         "</MaxAutoParticipantIndex><Peers><Peer Address=\"" + address + "\"/></Peers></Discovery>";
}

}  // namespace mwbench::dds
