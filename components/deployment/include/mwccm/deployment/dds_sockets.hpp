// Where a process's DDS sockets stay: the `dds` delivery strategy's
// participants listen on the address the process's channels receive on,
// never on every interface. Cyclone DDS 0.10 binds its receive sockets to
// the wildcard address whatever its configuration names, so the process's
// own bind() keeps them there (dds_common's mwbench/dds/confine.hpp). A
// component server and a compiled plan's program call this before any
// participant exists.
#pragma once

#include <string>

namespace mwccm::deployment {

// Keeps this process's DDS sockets on `channel_address` (an IPv4 literal;
// std::invalid_argument otherwise), unless its ORB `endpoint` itself listens
// on every interface ("giop:tcp::0", "giop:tcp:0.0.0.0:0"): the user then
// asked for every interface, and DDS follows.
void keep_dds_sockets_on(const std::string& endpoint, const std::string& channel_address);

}  // namespace mwccm::deployment
