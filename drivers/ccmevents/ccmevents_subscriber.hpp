// What every subscriber of the fan-out does with an event, whichever layer
// (a component's executor, a plain object) and strategy delivered it, so
// that layers differ by the delivery alone: a probe (number 0, the
// handshake) is answered and not counted; an event is counted, checked with
// verify=1 (the next number, the payload's length and pattern), and
// answered through the process's ReplySink.
#pragma once

#include <atomic>
#include <cstdint>

#include "CcmEvents_ccm_glue.hpp"

namespace ccmevents {

// Where a subscriber's reply goes: the publisher's tally (collocated) or
// the connection to the publisher (a subscriber process).
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  // From the thread that delivered the event.
  virtual void reply(std::int32_t subscriber, std::uint64_t event, bool intact) = 0;
};

class SubscriberLogic {
 public:
  void configure(std::int32_t number, bool verify, std::uint32_t payload_bytes,
                 ReplySink& replies) {
    number_ = number;
    verify_ = verify;
    payload_bytes_ = payload_bytes;
    replies_ = &replies;
  }
  void on_event(const CcmEvents::Update& event);

  std::int32_t number() const noexcept { return number_; }
  std::uint64_t received() const noexcept { return received_.load(std::memory_order_relaxed); }

 private:
  bool intact(const CcmEvents::Update& event) const;

  std::int32_t number_ = -1;
  bool verify_ = false;
  std::uint32_t payload_bytes_ = 0;
  ReplySink* replies_ = nullptr;
  std::atomic<std::uint64_t> received_{0};
};

// The payload of every event: byte i is i mod 251 (docs/driver-contract.md).
inline std::uint8_t pattern_byte(std::size_t i) noexcept {
  return static_cast<std::uint8_t>(i % 251);
}

}  // namespace ccmevents
