// The client end of the iceoryx driver: a publisher of pings, a subscriber
// of pongs, and the wait that gets the pong to the measuring thread (a
// WaitSet, or a spin on take(); README, "How the loop waits").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "iceoryx_posh/popo/untyped_publisher.hpp"
#include "iceoryx_posh/popo/untyped_subscriber.hpp"
#include "iceoryx_posh/popo/wait_set.hpp"
#include "iceoryx_session.hpp"
#include "mwbench/measurement.hpp"

namespace iceoryx {

class Client {
 public:
  // Offers the ping service and subscribes to the pong service of
  // `endpoint` (the runtime must exist), queueing `queue_capacity` pongs. A
  // pong that does not answer its ping is reported through
  // `measurement.fail()`.
  Client(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, double timeout_s,
         mwbench::Measurement& measurement, std::uint64_t queue_capacity);

  // Before the warm-up: waits until the ping publisher has a subscriber and
  // the pong subscriber is connected to a publisher (RouDi has matched both
  // ends; from then on every chunk goes straight through shared memory).
  // Throws "no subscriber of mwbench/4217/ping after 10 s ..." after --timeout.
  void connect();

  // One measured round trip: loan a chunk, write the ping (and its payload)
  // into it, publish it, wait for the pong, check it, release it. Throws
  // when no pong comes within --timeout.
  void call();

  // An open --load, after connect() (common/open_loop_pings.hpp): the
  // harness's thread publishes the pings on its schedule, a reader thread
  // takes the pongs (waiting in the WaitSet, or spinning) and matches each
  // to its ping by its sequence number.
  void run_open();

 private:
  // Loans a chunk and writes ping `seq` (and the payload) into it, all but
  // the stamp, which the caller writes last, just before publishing.
  Message* loan_ping(std::uint64_t seq);
  // Takes the next pong and releases its chunk; false when none is there.
  // Throws on an error.
  bool take_pong(Message& pong);
  // Waits for the pong of ping `seq_` (skipping older ones); false on timeout.
  bool await_pong();
  void check_pong(const Message& pong);

  const Endpoint endpoint_;
  const CallSettings call_;
  iox::popo::UntypedPublisher publisher_;
  iox::popo::UntypedSubscriber subscriber_;
  std::optional<iox::popo::WaitSet<>> waitset_;  // wait=waitset: subscriber_ has data
  std::uint64_t seq_ = 0;
  std::uint64_t stamp_ = 0;
};

}  // namespace iceoryx
