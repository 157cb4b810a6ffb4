// The subscribers of a fan-out that one process hosts (a subscriber process,
// or the collocated process): each an iceoryx Subscriber of the event service
// and a Publisher of the reply service, served by a thread of its own that
// waits on its own WaitSet (or spins on take()), answers each probe with a
// hello and each event with a reply, and counts the events.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "iceoryx_fanout.hpp"

namespace iceoryx {

class Subscribers {
 public:
  // Creates subscribers endpoint.first .. endpoint.first + endpoint.count - 1
  // (the runtime must exist): each subscribes to the event service and offers
  // the reply service. With `verify`, each checks every payload byte.
  Subscribers(const FanoutEndpoint& endpoint, Wait wait, std::size_t payload_bytes, bool verify);
  ~Subscribers();  // stops and joins the threads
  Subscribers(const Subscribers&) = delete;
  Subscribers& operator=(const Subscribers&) = delete;

  // Waits until RouDi has taken every subscription in (each waits for the
  // publisher's offer, or is connected to it), so that the publisher, once it
  // offers, reaches all of them. Throws after `timeout_s`.
  void await_subscribed(double timeout_s);
  // Starts one serving thread per subscriber.
  void start();
  // From any thread (the stop callback): every thread returns soon after.
  void stop() noexcept;
  // Waits until the threads have returned (after stop(), or a failure): the
  // events each subscriber received and answered, in subscriber order.
  // Throws the first failure of any of them.
  std::vector<std::uint64_t> join();
  // The first failure of any subscriber (a failed loan, a payload mismatch
  // with verify=1); empty if none.
  std::string failure() const;

 private:
  class Subscriber;
  friend class Subscriber;
  void record_failure(std::string message) noexcept;  // and stop all

  std::vector<std::unique_ptr<Subscriber>> subscribers_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
};

}  // namespace iceoryx
