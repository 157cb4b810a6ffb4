// The publisher's bookkeeping in a fan-out (docs/driver-contract-fanout.md).
//
// One publisher sends an event; every subscriber replies with its number and
// the event's number; the call ends when the last reply arrives. ReplyTally
// says when that is, and catches what a correct middleware never does: a reply
// from no known subscriber, a second reply to one event, a reply to an event
// that is not in flight. It allocates only when built, so counting a reply
// costs no allocation on the measured path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace mwbench {

class ReplyTally {
 public:
  enum class Reply {
    counted,     // a first reply to the event in flight; others are missing
    last,        // ... and the last one missing: the event is complete
    unexpected,  // see describe()
  };

  explicit ReplyTally(int subscribers);

  int subscribers() const noexcept { return static_cast<int>(replied_.size()); }

  // Event `event` was just sent: every subscriber now owes a reply to it.
  void expect(std::uint64_t event) noexcept {
    event_ = event;
    missing_ = subscribers();
    ++published_;
    ++generation_;
    if (generation_ == 0) {  // wrapped: clear the marks rather than trust stale ones
      std::fill(replied_.begin(), replied_.end(), 0);
      generation_ = 1;
    }
  }

  Reply count(int subscriber, std::uint64_t event) noexcept {
    if (subscriber < 0 || subscriber >= subscribers() || event != event_ ||
        replied_[static_cast<std::size_t>(subscriber)] == generation_) {
      return Reply::unexpected;
    }
    replied_[static_cast<std::size_t>(subscriber)] = generation_;
    return --missing_ == 0 ? Reply::last : Reply::counted;
  }

  // Why count(subscriber, event) was unexpected, for Measurement::fail().
  std::string describe(int subscriber, std::uint64_t event) const;
  // Which subscribers have not replied to the event in flight, for a timeout.
  std::string describe_missing() const;

  std::uint64_t published() const noexcept { return published_; }
  std::uint64_t event() const noexcept { return event_; }
  int missing() const noexcept { return missing_; }

 private:
  std::vector<std::uint32_t> replied_;  // generation_ of the event each last replied to
  std::uint32_t generation_ = 0;
  std::uint64_t event_ = 0;
  std::uint64_t published_ = 0;
  int missing_ = 0;
};

}  // namespace mwbench
