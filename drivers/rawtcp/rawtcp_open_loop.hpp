// rawtcp's open loop (--load constant:RATE or poisson:RATE): the harness's
// thread writes each request when it is due, without waiting; a reader
// thread reads the replies, which come in order on the one connection, and
// hands reply k to Measurement::completed(k). roundtrip's request is the call
// number, which the echo must carry back; ping's is its one byte.
//
// Only those two: the octets operations' server reads a message with one
// recv() that may take the next one too (rawtcp_protocol.hpp, recv_message),
// which is right only while one request is in flight.
#pragma once

#include "mwbench/measurement.hpp"
#include "rawtcp_transport.hpp"

namespace rawtcp {

inline constexpr const char* kOpenLoopOperations[] = {"roundtrip", "ping"};

// Measures `o.operation` over `socket` with Measurement::run_open().
void measure_open(const mwbench::DriverOptions& o, mwbench::Measurement& m, Socket socket);

}  // namespace rawtcp
