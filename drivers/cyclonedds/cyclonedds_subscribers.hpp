// The subscribers of a cyclonedds fan-out (docs/driver-contract.md section 5):
// in a subscriber process (the server) or beside the publisher (collocated).
// Each subscriber is a reader of the event topic and a writer of the reply
// topic of its own; it answers every event with its number and the event's,
// and counts the events (not the handshake probes) it answered.
//
// wait=waitset: a thread per subscriber blocks in a waitset of its own on its
// reader's read condition and a guard condition that stop() triggers.
// wait=poll: a thread per subscriber spins on dds_take. wait=listener: no
// thread; Cyclone's thread (remote: its receive thread; collocated: the
// publisher's writing thread) calls the subscriber's on_data_available,
// which takes and replies.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cyclonedds_fanout.hpp"

namespace cyclonedds {

class Subscribers {
 public:
  // Creates subscribers `first` .. `first + count - 1` in `participant`.
  // `payload_bytes` sizes the buffer events are taken into; with `verify`
  // every payload byte is checked against pattern_byte() and the reply says
  // whether it was intact.
  Subscribers(FanoutParticipant& participant, Wait wait, int first, int count,
              std::size_t payload_bytes, bool verify);
  // Stops and joins; deletes the readers, which waits for a listener running.
  ~Subscribers();
  Subscribers(const Subscribers&) = delete;
  Subscribers& operator=(const Subscribers&) = delete;

  // Starts the subscribers' threads (none for wait=listener).
  void start();
  // From any thread: the threads end soon after; serve() returns.
  void stop() noexcept;
  // Blocks until stop() (a server's main thread).
  void serve();
  // Stops, joins the threads and detaches the listeners (waiting for one
  // that runs); throws the first failure of any subscriber.
  void join();
  // The events each subscriber answered, first one first. After join().
  std::vector<std::uint64_t> received() const;

 private:
  struct Subscriber;
  void run(Subscriber& s) noexcept;
  void answer_all(Subscriber& s) noexcept;
  void record_failure(std::string message) noexcept;
  static void on_data_available(dds_entity_t reader, void* subscriber);

  FanoutParticipant& participant_;
  const Wait wait_;
  const std::size_t payload_bytes_;
  const bool verify_;
  std::vector<std::unique_ptr<Subscriber>> subscribers_;
  dds_entity_t waitset_ = 0;  // serve(): the guard condition alone
  dds_entity_t guard_ = 0;    // triggered by stop(), attached to every waitset
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
  bool joined_ = false;
};

}  // namespace cyclonedds
