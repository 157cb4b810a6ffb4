// The fan-out publisher logic the DDS drivers share (cyclonedds, fastdds;
// docs/driver-contract-fanout.md): the handshake of connect(), one
// measured event and the gathering of its N replies into a
// mwbench::ReplyTally. A vendor's Publisher derives from
// EventPublisher<Publisher> and supplies only what its API spells
// differently (CRTP: no virtual call on the measured path):
//
//   MatchCounts matched();        readers of the event writer, writers of the reply reader
//   void send_event(std::uint64_t number);            writes an event (0: a probe); throws
//   bool wait_in_waitset(const PingTimeout& timeout); false on timeout; throws
//   bool take_reply(EventReply& reply);  false when nothing is left; throws; a
//       sample without valid data (a state change) is skipped, not returned
//
// and calls replies_available() from its reply reader's listener
// (wait=listener).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/dds_ping_client.hpp"
#include "common/doorbell.hpp"
#include "common/fanout_handshake.hpp"
#include "common/fanout_reply.hpp"
#include "common/seconds_text.hpp"
#include "common/spin_timeout.hpp"
#include "common/wait_strategy.hpp"
#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"

namespace mwbench::common {

struct MatchCounts {
  int readers = 0;  // of the event writer
  int writers = 0;  // of the reply reader
};

// What the skeleton reads of a reply sample.
struct EventReply {
  int subscriber = 0;
  std::uint64_t event_number = 0;  // 0: the answer to a probe
  bool intact = true;
};

// Where the publisher's messages say it looked: "domain 7, partitions a, b".
inline std::string fanout_place(std::uint32_t domain, const std::vector<std::string>& partitions) {
  std::string text = "domain " + std::to_string(domain) + ", partitions ";
  for (std::size_t i = 0; i < partitions.size(); ++i) text += (i == 0 ? "" : ", ") + partitions[i];
  return text;
}

template <class Vendor>
class EventPublisher {
 public:
  // Before the warm-up, within --timeout: waits until the event writer has
  // matched N readers and the reply reader N writers, then writes handshake
  // probes (event 0, not counted) until every subscriber has answered one,
  // which proves that each reply writer has matched this reader too. Throws,
  // naming the subscribers that never answered, after --timeout.
  void connect() {
    const auto deadline = PingTimeout::deadline(timeout_s_);
    const int n = tally_.subscribers();
    // Matched here does not mean matched there: until a subscriber has
    // discovered the reply reader, its replies go nowhere. So probe until
    // each has answered: every 100 ms, and at once when the last match comes
    // in. Probes that go nowhere cost nothing, and those answered name the
    // subscribers missing when the time is up.
    Handshake handshake(n);
    bool all_matched = false;
    auto next_probe = std::chrono::steady_clock::now();
    while (!handshake.complete() && std::chrono::steady_clock::now() < deadline) {
      const auto now = std::chrono::steady_clock::now();
      if (!all_matched) {
        const MatchCounts counts = vendor().matched();
        if (counts.readers >= n && counts.writers >= n) {
          all_matched = true;
          next_probe = now;
        }
      }
      if (now >= next_probe) {
        vendor().send_event(0);
        next_probe = now + kProbeInterval;
      }
      EventReply reply;
      while (vendor().take_reply(reply)) {
        if (reply.event_number == 0) handshake.answered(reply.subscriber);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (handshake.complete()) return;
    const MatchCounts counts = vendor().matched();
    throw std::runtime_error(handshake.describe_missing() + " after " + seconds_text(timeout_s_) +
                             " s: the event writer matched " + std::to_string(counts.readers) +
                             " of " + std::to_string(n) + " readers, the reply reader " +
                             std::to_string(counts.writers) + " of " + std::to_string(n) +
                             " writers (" + place_ + "; are the subscriber processes running?)");
  }

  // One measured event: write it, wait for the N replies. On a timeout,
  // fail()s the measurement naming the subscribers missing.
  void call() {
    tally_.expect(++seq_);
    try {
      vendor().send_event(seq_);
      SpinTimeout spinning(timeout_.ns);
      for (;;) {
        bool timed_out = false;
        switch (wait_) {
          case Wait::waitset:
            timed_out = !vendor().wait_in_waitset(timeout_);
            break;
          case Wait::listener:
          case Wait::chain:  // refused for fanout (pubsub_settings): the listener's wait
            timed_out = !doorbell_.wait(timeout_.ts);
            break;
          case Wait::poll:
            timed_out = spinning.expired();
            break;
        }
        if (take_replies()) return;
        if (timed_out) {
          measurement_.fail(tally_.describe_missing() + " within " + seconds_text(timeout_s_) +
                            " s (--timeout)");
          return;
        }
      }
    } catch (const std::exception& e) {
      measurement_.fail(e.what());
    }
  }

  // Events written (warm-up and measured; not the probes).
  std::uint64_t published() const noexcept { return tally_.published(); }

 protected:
  EventPublisher(std::string place, Wait wait, int subscribers, double timeout_s,
                 Measurement& measurement)
      : place_(std::move(place)),
        wait_(wait),
        measurement_(measurement),
        timeout_s_(timeout_s),
        timeout_(PingTimeout::of(timeout_s)),
        tally_(subscribers) {}

  // From the reply reader's listener (wait=listener): wakes call().
  void replies_available() noexcept { doorbell_.ring(); }

 private:
  // How often connect() writes a probe while subscribers are missing.
  static constexpr auto kProbeInterval = std::chrono::milliseconds(100);

  Vendor& vendor() noexcept { return static_cast<Vendor&>(*this); }

  // Takes what replies there are into the tally; true once the last is in
  // (or a failure ended the event).
  bool take_replies() {
    EventReply reply;
    while (vendor().take_reply(reply)) {
      if (reply.event_number == 0) continue;  // a late answer to a probe of connect()
      if (settle_reply(tally_, measurement_, reply.subscriber, reply.event_number, reply.intact)) {
        return true;
      }
    }
    return false;
  }

  const std::string place_;
  const Wait wait_;
  Measurement& measurement_;
  const double timeout_s_;
  const PingTimeout timeout_;
  Doorbell doorbell_;  // wait=listener
  ReplyTally tally_;
  std::uint64_t seq_ = 0;
};

}  // namespace mwbench::common

// The hooks above, declared once: a vendor's Publisher says
// MWBENCH_DDS_EVENT_PUBLISHER_HOOKS(Publisher) among its private members and
// defines them.
#define MWBENCH_DDS_EVENT_PUBLISHER_HOOKS(Vendor)                    \
  friend class mwbench::common::EventPublisher<Vendor>;              \
  mwbench::common::MatchCounts matched();                            \
  void send_event(std::uint64_t number);                             \
  bool wait_in_waitset(const mwbench::common::PingTimeout& timeout); \
  bool take_reply(mwbench::common::EventReply& reply);
