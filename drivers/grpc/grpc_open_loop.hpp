// The gRPC driver's open loop (--load constant:RATE or poisson:RATE,
// docs/driver-contract.md section 2): unary calls started through the
// asynchronous stub on the harness's schedule, whatever the replies do.
//
// The harness's sending thread starts each call (Stub::AsyncX, then Finish()
// with the call's number as the tag) and returns at once; one reader thread
// drains the completion queue, checks each reply and hands the call's number
// to Measurement::completed(). This is the shape of gRPC's own benchmark
// client (test/cpp/qps, its async unary client: a context per call in
// flight, threads blocked in CompletionQueue::Next()), with a schedule that
// does not wait for a context to be free. The server is the same
// synchronous one as the closed loop's.
#pragma once

#include "RoundTrip.grpc.pb.h"
#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"

namespace grpc_driver {

// Runs the measured open loop of `o.operation` (roundtrip, ping, octets)
// through `stub`, on the harness's schedule (Measurement::run_open()). At
// most kMaxInFlight calls are in flight at once: a call whose turn comes
// while the call kMaxInFlight before it is still unanswered fails the run,
// naming the rate.
void measure_open_loop(mwbench_grpc::RoundTrip::Stub& stub, const mwbench::DriverOptions& o,
                       mwbench::Measurement& m);

// The calls in flight the driver keeps state for (a grpc::ClientContext, the
// reply and the status, about 600 bytes each): enough for 30 s of replies
// at 2000 calls/s, a bound on memory that an open loop otherwise lacks.
inline constexpr std::uint64_t kMaxInFlight = std::uint64_t{1} << 16;

}  // namespace grpc_driver
