// Keeps a DDS stack's sockets on one IPv4 address, the process's --bind,
// where the stack's own configuration cannot.
//
// A program that links this defines two functions of libc itself; the
// dynamic linker resolves the DDS library's calls to them before libc's:
//
// - bind(): Cyclone DDS 0.10 binds its unicast receive sockets to the
//   wildcard address whatever interface its configuration names (ddsi_udp.c:
//   a socket for DDSI_TRAN_QOS_RECV_UC is bound "to any"; no setting changes
//   that before 0.11). Nothing would be sent beyond the configured interface,
//   but the ports would accept datagrams from every interface of the machine,
//   and mwbench's programs listen where they are told only
//   (docs/driver-contract.md). So a wildcard address (0.0.0.0, ::) becomes
//   the address given here (127.0.0.1 and ::1 by default). Every other bind
//   passes unchanged.
// - getifaddrs(): a DDS stack binds and advertises the addresses of the
//   interfaces it selects, and selects them from getifaddrs() (Cyclone's
//   NetworkInterface, Fast DDS's interface whitelist). Linux answers the
//   whole of 127.0.0.0/8 on lo, but lists 127.0.0.1 alone as lo's address;
//   so when the address given here is a loopback address that no interface
//   lists (127.0.0.2), this process sees it as lo's address instead of
//   127.0.0.1, and the stack binds and advertises it. Any other address is
//   an interface's own (or a bind to it fails): the list passes unchanged.
//
// Both happen when a participant is created, never on a measured path.
#pragma once

#include <string>

namespace mwbench::dds {

// Confines this process's DDS sockets to `ipv4` from now on (see above): an
// IPv4 address literal (std::invalid_argument otherwise). Call it before the
// first participant exists. Calling it also makes the linker keep this
// bind() and getifaddrs() in the program.
void confine_to(const std::string& ipv4);

}  // namespace mwbench::dds
