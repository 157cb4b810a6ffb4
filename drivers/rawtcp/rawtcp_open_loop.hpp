// rawtcp's open loop (--load constant:RATE or poisson:RATE): the harness's
// thread writes each request when it is due, without waiting; a reader thread
// reads the replies, which come in order on the one connection, and hands
// reply k to Measurement::completed(k). roundtrip's request is the call
// number, which the echo must carry back; the others' are those of the closed
// loop, and their replies are checked as there (verify=1 included).
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
