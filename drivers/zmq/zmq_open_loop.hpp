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
// The threads: a ZeroMQ socket belongs to one thread, and the harness owns
// the sending thread. So a reader thread owns the DEALER and waits
// (zmq_poll) on it and on the inner end of an inproc PAIR through which the
// sending thread hands it each call number. That costs each request one
// more pipe and one wake-up of the reader; why the alternatives (a socket
// shared under a lock, one thread polling to the schedule) are worse is in
// the README, "Open loop".
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
// serves in the same context). `wait` is how the reader thread waits:
// block, a blocking zmq_poll(); spin, zmq_poll() with timeout 0 in a loop.
void measure_open_loop(zmq::context_t& context, const mwbench::DriverOptions& o,
                       const std::string& endpoint, Wait wait, mwbench::Measurement& m);

}  // namespace zmq_driver
