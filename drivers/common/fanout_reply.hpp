// What a fan-out publisher makes of one reply (docs/driver-contract-fanout.md),
// the same for every middleware whose reply says whether the
// subscriber found the event's payload intact (--option verify=1).
#pragma once

#include <cstdint>
#include <string>

#include "mwbench/fanout.hpp"
#include "mwbench/measurement.hpp"

namespace mwbench::common {

// Counts the reply of `subscriber` to `event`. Returns true when the call is
// over: the last reply has come, or the reply was wrong (a payload the
// subscriber found broken, a subscriber or event the tally refuses), which is
// reported to `measurement` here. False: more replies are to come.
inline bool settle_reply(ReplyTally& tally, Measurement& measurement, int subscriber,
                         std::uint64_t event, bool intact) {
  if (!intact) {
    measurement.fail("fanout: subscriber " + std::to_string(subscriber) +
                     " found a payload mismatch (verify=1)");
    return true;
  }
  switch (tally.count(subscriber, event)) {
    case ReplyTally::Reply::counted:
      return false;
    case ReplyTally::Reply::last:
      return true;
    case ReplyTally::Reply::unexpected:
      break;
  }
  measurement.fail(tally.describe(subscriber, event));
  return true;
}

}  // namespace mwbench::common
