// The publisher side of the zmq driver's fan-out: one PUB socket connected
// to every subscriber's SUB, one PULL socket connected to every subscriber's
// PUSH (zmq_subscribers.hpp). Per event, one send on the PUB (libzmq copies
// it to each subscriber's pipe and its I/O thread writes them), then a
// receive per reply on the PULL until every subscriber has replied
// (mwbench::ReplyTally counts them).
//
// The handshake beats ZeroMQ's "slow joiner": a PUB drops what it sends
// before a subscriber's subscription has reached it, and a connect returns
// long before that. So the publisher sends probes, one a millisecond, until
// every subscriber has answered one; then, as later probes may still be on
// their way, it waits until every subscriber has answered the last (each
// subscriber's answers come in order). Only then is nothing of the handshake
// left in flight, and the first event reaches every subscriber. Probes are
// not events: nobody counts them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"
#include "zmq_messages.hpp"

namespace zmq_driver {

class Publisher {
 public:
  // Connects to every subscriber (`endpoints`: SUB, PUSH, SUB, PUSH, ... in
  // subscriber order), then runs the handshake within --timeout. Throws
  // naming the subscribers that never answered.
  Publisher(zmq::context_t& context, const mwbench::DriverOptions& o,
            const std::vector<std::string>& endpoints, Wait wait);

  // One event, the measured call: publish it, wait for every reply. A wrong
  // reply or no reply for --timeout reports m.fail() naming the subscribers
  // missing; the calls after it do nothing.
  void publish(mwbench::Measurement& m);

  // Events sent (warm-up and measured; not the probes).
  std::uint64_t published() const noexcept { return tally_.published(); }

 private:
  void handshake(double timeout_s);
  // One reply into reply_; nullopt after --timeout without one.
  std::optional<std::size_t> receive_reply();
  void fail(mwbench::Measurement& m, const std::string& why);

  zmq::socket_t pub_;
  zmq::socket_t pull_;
  std::vector<std::uint8_t> event_;  // built once; each event writes its number
  FanoutHeader reply_{};
  mwbench::ReplyTally tally_;
  const Wait wait_;
  const int timeout_ms_;
  std::uint64_t next_event_ = 0;
  bool failed_ = false;
};

}  // namespace zmq_driver
