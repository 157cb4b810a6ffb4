// The zmq driver's open loop (--load constant:RATE or poisson:RATE,
// docs/driver-contract.md section 2): requests sent on the harness's
// schedule, whatever the replies do, to the same REP socket as the closed
// loop's.
//
// The sockets: a DEALER, which sends without waiting for a reply, to the
// closed loop's REP socket, unchanged (a server never takes --load, so it
// could not choose another socket). REP keeps every frame up to the empty
// delimiter as the envelope and sends it back before the reply, so a request
// [call number][empty][body] comes back as [call number][empty][reply].
//
// The thread: a ZeroMQ socket belongs to one thread, so the harness's
// sending thread owns the DEALER: it sends each request, and receives the
// replies while the harness waits for the next intended time (run_open's
// wait_until: a ppoll() on the DEALER's ZMQ_FD to the deadline, ZMQ_EVENTS
// saying whether a reply waits). So a reply wakes the thread that sent the
// call, as the REQ's thread in the closed loop, and no request crosses
// another thread (the README, "Open loop", says why).
//
// No high-water mark on either socket: an open loop must neither block the
// sender nor drop a request because a queue is full.
#pragma once

#include <string>
#include <zmq.hpp>

#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"
#include "zmq_messages.hpp"

namespace zmq_driver {

// Runs the measured open loop of `o.operation` (roundtrip, ping, octets) to
// the REP socket at `endpoint`, in `context` (collocated: the REP side
// serves in the same context). `wait` is how the sending thread waits for
// replies: block, a ppoll() to the deadline; spin, ppoll() with timeout 0 in
// a loop until the deadline.
void measure_open_loop(zmq::context_t& context, const mwbench::DriverOptions& o,
                       const std::string& endpoint, Wait wait, mwbench::Measurement& m);

}  // namespace zmq_driver
