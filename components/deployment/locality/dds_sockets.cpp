// keep_dds_sockets_on (dds_sockets.hpp).
#include <mwccm/deployment/dds_sockets.hpp>

#include "mwbench/dds/confine.hpp"

namespace mwccm::deployment {
namespace {

bool listens_everywhere(const std::string& endpoint) {
  const auto host_begin = endpoint.find(':', endpoint.find(':') + 1) + 1;
  const std::string host = endpoint.substr(host_begin, endpoint.rfind(':') - host_begin);
  return host.empty() || host == "0.0.0.0";
}

}  // namespace

void keep_dds_sockets_on(const std::string& endpoint, const std::string& channel_address) {
  if (!listens_everywhere(endpoint)) mwbench::dds::confine_to(channel_address);
}

}  // namespace mwccm::deployment
