// The publisher's side of a fan-out's handshake
// (docs/driver-contract-fanout.md): before the warm-up it sends probes, which
// are not events, until every subscriber has answered one. Handshake keeps who
// has, and says who has not when the time is up.
#pragma once

#include <string>
#include <vector>

namespace mwbench::common {

class Handshake {
 public:
  explicit Handshake(int subscribers);

  // A subscriber answered a probe (again, perhaps). Throws std::runtime_error
  // for a number outside 0 .. N-1: a stray from another fan-out.
  void answered(int subscriber);
  bool complete() const noexcept { return missing_ == 0; }
  int subscribers() const noexcept { return static_cast<int>(answered_.size()); }

  // "2 of 4 subscribers (1, 3) did not answer the fan-out handshake" (at
  // most 8 numbers listed).
  std::string describe_missing() const;

 private:
  std::vector<bool> answered_;
  int missing_;
};

}  // namespace mwbench::common
