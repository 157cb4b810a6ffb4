// The publisher of a fan-out (the client, or the collocated process's
// measuring thread): a Publisher of the event service, one Subscriber of the
// reply service that all subscribers answer on, and the tally of the replies
// to the event in flight (README, "Fan-out").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "iceoryx_fanout.hpp"
#include "iceoryx_posh/popo/untyped_publisher.hpp"
#include "iceoryx_posh/popo/untyped_subscriber.hpp"
#include "iceoryx_posh/popo/wait_set.hpp"
#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"

namespace iceoryx {

class Publisher {
 public:
  // Offers the event service and subscribes to the reply service of
  // `endpoint`, whose subscribers are 0 .. endpoint.count - 1 (the runtime
  // must exist). A reply that answers no event in flight, or says the
  // payload arrived broken, is reported through `measurement.fail()`.
  Publisher(const FanoutEndpoint& endpoint, Wait wait, std::size_t payload_bytes, double timeout_s,
            mwbench::Measurement& measurement);
  // After a subscriber stopped answering, leaves its ports to RouDi instead
  // of detaching them (see the .cpp).
  ~Publisher();
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // The handshake, before the warm-up: waits until the event publisher has a
  // subscriber, then publishes a probe every 10 ms until every subscriber has
  // answered one with a hello (its event subscription and its reply
  // publisher are both connected). Throws after --timeout, naming the
  // subscribers that have not answered.
  void connect();

  // One event: loan a chunk, write the event (and its payload) into it,
  // publish it once, wait until every subscriber has replied to it. After
  // a failure (a missing reply within --timeout, a wrong one) it returns at
  // once, so that the rest of a batch costs nothing.
  void call();

  // Events published: warm-up and measured, not the probes.
  std::uint64_t published() const noexcept { return tally_.published(); }

 private:
  // Takes replies until the last one to the event in flight; false when
  // none came within --timeout.
  bool await_replies();
  // Counts one reply; false if it ended the run.
  bool count(const FanoutReply& reply);
  void fail(std::string message);
  // The handshake's hellos: marks each subscriber heard; returns how many
  // are still missing.
  int take_hellos(std::vector<bool>& heard, int missing);

  const FanoutEndpoint endpoint_;
  const CallSettings call_;
  // The iceoryx ports, on the heap so that the destructor can abandon them.
  struct Ports {
    Ports(const FanoutEndpoint& endpoint, Wait wait);
    iox::popo::UntypedPublisher events;
    iox::popo::UntypedSubscriber replies;
    std::optional<iox::popo::WaitSet<1>> waitset;  // wait=waitset: replies has data
  };
  std::unique_ptr<Ports> ports_;
  iox::popo::UntypedPublisher& events_;
  iox::popo::UntypedSubscriber& replies_;
  std::optional<iox::popo::WaitSet<1>>& waitset_;
  mwbench::ReplyTally tally_;
  std::uint64_t event_ = 0;
  bool failed_ = false;
  bool lost_subscriber_ = false;  // a reply did not come within --timeout
};

}  // namespace iceoryx
