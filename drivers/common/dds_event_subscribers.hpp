// The fan-out subscribers' logic the DDS drivers share (cyclonedds, fastdds;
// docs/driver-contract-fanout.md): in a subscriber process (the server)
// or beside the publisher (collocated), each subscriber takes every event,
// answers it with its number and the event's (after checking the payload
// with verify=1) and counts the events (not the handshake probes) it
// answered.
//
// wait=waitset: a thread per subscriber blocks in a waitset of its own on its
// reader's read condition and a guard condition that stop() triggers.
// wait=poll: a thread per subscriber spins on take. wait=listener: no thread;
// the middleware's thread (remote: its receive thread; collocated: the
// publisher's writing thread) calls answer_all() from the subscriber's
// listener.
//
// A vendor's Subscribers derives from EventSubscribers<Subscribers, S>, where
// S (its subscriber: reader, writer, waitset, samples) derives from
// SubscriberBase, and supplies (CRTP: no virtual call on the measured path):
//
//   void wait_for_event(S& s);      wait=waitset: blocks in s's waitset; throws
//   bool take_event(S& s, EventView& event);  false when nothing is left;
//       throws; a sample without valid data is skipped, not returned
//   void send_reply(S& s, std::uint64_t event, bool intact);  throws
//   void wake_all() noexcept;       triggers the guard conditions (stop())
//   void block_until_woken();       serve(): waits on the guard condition
//   void detach_listeners();        join(): waits for a listener that runs
//
// Its constructor, Subscribers(participant, wait, first, count, payload_bytes,
// verify), creates subscribers `first` .. `first + count - 1` in the
// participant, each taking events into a buffer of `payload_bytes`; with
// `verify` every payload byte is checked against pattern_byte() and the reply
// says whether it was intact. Its destructor calls halt() (stop and join)
// before it deletes its entities; deleting a reader waits for its listener.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/payload_pattern.hpp"
#include "common/wait_strategy.hpp"

namespace mwbench::common {

// What the skeleton reads of an event sample.
struct EventView {
  std::uint64_t number = 0;  // 0: a handshake probe (dds_event_publisher.hpp), not an event
  const std::uint8_t* payload = nullptr;
  std::size_t length = 0;
};

// What the skeleton keeps of one subscriber.
struct SubscriberBase {
  explicit SubscriberBase(int number) : number(number) {}
  const int number;
  alignas(64) std::atomic<std::uint64_t> received{0};  // written by one thread only
  std::thread thread;
};

template <class Vendor, class Subscriber>
class EventSubscribers {
 public:
  // Starts the subscribers' threads (none for wait=listener).
  void start() {
    if (wait_ == Wait::listener) return;
    for (auto& s : subscribers_) {
      Subscriber* const own = s.get();
      s->thread = std::thread([this, own] { run(*own); });
    }
  }

  // From any thread: the threads end soon after; serve() returns.
  void stop() noexcept {
    stop_.store(true, std::memory_order_relaxed);
    vendor().wake_all();
  }

  // Blocks until stop() (a server's main thread).
  void serve() {
    while (!stop_.load(std::memory_order_relaxed)) vendor().block_until_woken();
  }

  // Stops, joins the threads and detaches the listeners (waiting for one
  // that runs); throws the first failure of any subscriber.
  void join() {
    halt();
    if (wait_ == Wait::listener) vendor().detach_listeners();
    const std::lock_guard lock(failure_mutex_);
    if (!failure_.empty()) throw std::runtime_error(failure_);
  }

  // The events each subscriber answered, first one first. After join().
  std::vector<std::uint64_t> received() const {
    std::vector<std::uint64_t> counts;
    for (const auto& s : subscribers_) {
      counts.push_back(s->received.load(std::memory_order_relaxed));
    }
    return counts;
  }

 protected:
  // A reply says whether its event's payload passed `check` (verify=1).
  EventSubscribers(Wait wait, PayloadCheck check) : wait_(wait), check_(check) {}
  ~EventSubscribers() = default;

  // Stops and joins the threads: the vendor's destructor calls it first.
  void halt() noexcept {
    stop();
    for (auto& s : subscribers_) {
      if (s->thread.joinable()) s->thread.join();
    }
  }

  // Takes every event there is and answers it (a thread's loop, or a listener).
  void answer_all(Subscriber& s) noexcept {
    try {
      EventView event;
      while (vendor().take_event(s, event)) {
        const bool intact = check_.intact(event.payload, event.length);
        if (!intact) {
          record_failure("subscriber " + std::to_string(s.number) + ": " +
                         check_.mismatch(event.payload, event.length));
        }
        vendor().send_reply(s, event.number, intact);
        if (event.number != 0) {
          s.received.store(s.received.load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
        }
      }
    } catch (const std::exception& e) {
      record_failure("subscriber " + std::to_string(s.number) + ": " + e.what());
      stop();
    }
  }

  Wait wait() const noexcept { return wait_; }
  std::vector<std::unique_ptr<Subscriber>> subscribers_;

 private:
  Vendor& vendor() noexcept { return static_cast<Vendor&>(*this); }

  void run(Subscriber& s) noexcept {
    while (!stop_.load(std::memory_order_relaxed)) {
      if (wait_ == Wait::waitset) {
        try {
          vendor().wait_for_event(s);
        } catch (const std::exception& e) {
          record_failure("subscriber " + std::to_string(s.number) + ": " + e.what());
          return;
        }
      }
      answer_all(s);
    }
  }

  void record_failure(std::string message) noexcept {
    const std::lock_guard lock(failure_mutex_);
    if (failure_.empty()) failure_ = std::move(message);
  }

  const Wait wait_;
  const PayloadCheck check_;
  std::atomic<bool> stop_{false};
  mutable std::mutex failure_mutex_;  // guards failure_
  std::string failure_;
};

}  // namespace mwbench::common

// The hooks above, declared once: a vendor's Subscribers says
// MWBENCH_DDS_EVENT_SUBSCRIBERS_HOOKS(Subscribers, Subscriber) among its
// private members and defines them.
#define MWBENCH_DDS_EVENT_SUBSCRIBERS_HOOKS(Vendor, Subscriber)       \
  friend class mwbench::common::EventSubscribers<Vendor, Subscriber>; \
  void wait_for_event(Subscriber& s);                                 \
  bool take_event(Subscriber& s, mwbench::common::EventView& event);  \
  void send_reply(Subscriber& s, std::uint64_t event, bool intact);   \
  void wake_all() noexcept;                                           \
  void block_until_woken();                                           \
  void detach_listeners();
