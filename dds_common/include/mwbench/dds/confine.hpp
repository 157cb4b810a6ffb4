// Cyclone DDS 0.10 binds its unicast receive sockets to the wildcard address
// whatever interface its configuration names (ddsi_udp.c: a socket for
// DDSI_TRAN_QOS_RECV_UC is bound "to any"; no setting changes that before
// 0.11). Nothing is sent beyond the configured interface, but the ports would
// accept datagrams from every interface of the machine, and mwbench's
// programs listen where they are told only (docs/driver-contract.md).
//
// So a program that links this defines bind() itself: the dynamic linker
// resolves libddsc's calls to it before libc's, and a wildcard address
// (0.0.0.0, ::) becomes the address given here (127.0.0.1 and ::1 by
// default). Every other bind passes unchanged. A bind happens when Cyclone
// creates a participant, never on a measured path.
#pragma once

#include <string>

namespace mwbench::dds {

// Where a wildcard IPv4 bind of this process goes from now on: an IPv4
// address of this host (std::invalid_argument otherwise). Calling it also
// makes the linker keep this bind() in the program.
void bind_wildcard_to(const std::string& ipv4);

}  // namespace mwbench::dds
