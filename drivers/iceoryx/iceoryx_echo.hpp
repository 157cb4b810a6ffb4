// The serving end of the iceoryx driver: a subscriber of pings whose every
// chunk is answered with a pong chunk carrying its sequence number and
// timestamp (and, for `octets`, whether the payload arrived intact). The
// server process runs it on its main thread, a collocated process on a
// thread of its own.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "iceoryx_posh/popo/untyped_publisher.hpp"
#include "iceoryx_posh/popo/untyped_subscriber.hpp"
#include "iceoryx_posh/popo/user_trigger.hpp"
#include "iceoryx_posh/popo/wait_set.hpp"
#include "iceoryx_session.hpp"

namespace iceoryx {

class Echo {
 public:
  // Subscribes to the ping service and offers the pong service of
  // `endpoint` (the runtime must exist). With wait=waitset, a WaitSet holds
  // the subscriber's has-data state and a user trigger that stop() fires.
  // With `verify` every payload byte is checked against pattern_byte().
  // The ping subscriber queues `queue_capacity` chunks.
  Echo(const Endpoint& endpoint, Wait wait, std::size_t payload_bytes, bool verify,
       std::uint64_t queue_capacity);

  // Serves until stop(): waits in the WaitSet, or spins on take().
  void serve();
  // From any thread; serve() returns soon after.
  void stop() noexcept;
  // The first failure of the answering side (a payload mismatch with
  // verify=1, a failed loan); empty if none.
  std::string failure() const;

 private:
  // Takes every ping there is and publishes its pong.
  void answer_all() noexcept;
  void answer(const Message& ping) noexcept;
  void record_failure(std::string message) noexcept;

  const Wait wait_;
  const mwbench::common::PayloadCheck check_;  // verify=1
  iox::popo::UntypedSubscriber subscriber_;
  iox::popo::UntypedPublisher publisher_;
  iox::popo::UserTrigger stop_trigger_;
  std::optional<iox::popo::WaitSet<>> waitset_;  // wait=waitset
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
};

}  // namespace iceoryx
