// rawtcp's open loop (--load constant:RATE or poisson:RATE). The harness's
// sending thread writes each request when it is due, without waiting; who
// reads the replies is --option receive=:
// - reader (the default): a thread of its own, blocked in recv();
// - sender: the sending thread itself, while the harness waits for the next
//   intended time (Measurement::run_open's wait_until: a ppoll() on the
//   socket to the deadline, non-blocking reads that keep a partial reply, and
//   sends that take the replies while the socket has no room), so that a
//   reply wakes the thread that sent the call, as in the closed loop.
// On a 2-vCPU virtual machine the reader measured about 5 us less per call
// at 2000 and 5000 calls/s (the README says how), hence the default.
// Replies come in order on the one connection: reply k answers call k.
// roundtrip's request is the call number, which the echo must carry back;
// the others' are those of the closed loop, and their replies are checked
// as there (verify=1 included).
#pragma once

#include "mwbench/measurement.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

inline constexpr const char* kReceiveOption = "receive";
inline constexpr const char* kReceiveValues[] = {"reader", "sender"};

inline constexpr const char* kOpenLoopOperations[] = {"roundtrip", "ping", "octets", "octets_out",
                                                      "octets_inout"};

// Measures `o.operation` over `socket` with Measurement::run_open().
void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
                  bool verify);

}  // namespace rawtcp
