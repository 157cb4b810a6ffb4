// The subscribers of a fastdds fan-out (docs/driver-contract.md section 5): in
// a subscriber process (the server) or beside the publisher (collocated).
// Each subscriber is a DataReader of the event topic and a DataWriter of the
// reply topic of its own; it answers every event with its number and the
// event's, and counts the events (not the handshake probes) it answered.
//
// wait=waitset: a thread per subscriber blocks in a WaitSet of its own on its
// reader's ReadCondition and a GuardCondition that stop() triggers.
// wait=poll: a thread per subscriber spins on take_next_sample.
// wait=listener: no thread; Fast DDS's thread (remote: the transport's
// receive thread; collocated: the publisher's writing thread) calls the
// subscriber's on_data_available, which takes and replies.
#pragma once

#include <atomic>
#include <cstdint>
#include <fastdds/dds/core/condition/GuardCondition.hpp>
#include <fastdds/dds/core/condition/WaitSet.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fastdds_fanout.hpp"

namespace fastdds_driver {

class Subscribers {
 public:
  // Creates subscribers `first` .. `first + count - 1` in `participant`.
  // `payload_bytes` sizes the sample events are taken into; with `verify`
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
  // Stops and joins the threads; throws the first failure of any subscriber.
  void join();
  // The events each subscriber answered, first one first. After join().
  std::vector<std::uint64_t> received() const;

 private:
  class Subscriber;
  void run(Subscriber& s) noexcept;
  void answer_all(Subscriber& s) noexcept;
  void record_failure(std::string message) noexcept;

  FanoutParticipant& participant_;
  const Wait wait_;
  const std::size_t payload_bytes_;
  const bool verify_;
  std::vector<std::unique_ptr<Subscriber>> subscribers_;
  dds::GuardCondition guard_;  // serve(): triggered by stop()
  dds::WaitSet waitset_;
  dds::ConditionSeq active_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
};

}  // namespace fastdds_driver
