// The options the DDS drivers read the same way: --option wait= and verify=,
// and --payload-bytes up to what the middleware's sample can hold, with the
// fan-out's bound on busy waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/wait_strategy.hpp"
#include "mwbench/options.hpp"

namespace mwbench::common {

// Whether the cell measures a fan-out (docs/driver-contract-fanout.md).
inline bool is_fanout(const DriverOptions& o) { return o.operation == kFanoutOperation; }

struct PubSubSettings {
  Wait wait = Wait::waitset;
  bool verify = false;
  std::size_t payload_bytes = 0;
};

// Throws mwbench::UsageError (exit 2): a --payload-bytes beyond `max_payload_bytes`
// with "--payload-bytes N: " + `bound_reason`, wait=chain under an open
// --load, and what parse_wait() and check_busy_fanout() refuse.
PubSubSettings pubsub_settings(const DriverOptions& o, std::uint64_t max_payload_bytes,
                               const std::string& bound_reason);

}  // namespace mwbench::common
