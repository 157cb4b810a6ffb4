// rawtcp's open loop (--load constant:RATE or poisson:RATE), on one thread:
// the harness's sending thread writes each request when it is due, without
// waiting, and receives the replies while it waits for the next intended
// time (Measurement::run_open's wait_until: a ppoll() on the socket), so
// that at a low load a reply wakes the thread that sent it, as in the
// closed loop. Replies come in order on the one connection: reply k answers
// call k. roundtrip's request is the call number, which the echo must carry
// back; the others' are those of the closed loop, and their replies are
// checked as there (verify=1 included).
#pragma once

#include "mwbench/measurement.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

inline constexpr const char* kOpenLoopOperations[] = {"roundtrip", "ping", "octets", "octets_out",
                                                      "octets_inout"};

// Measures `o.operation` over `socket` with Measurement::run_open().
void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket,
                  bool verify);

}  // namespace rawtcp
