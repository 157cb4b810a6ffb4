// The --option wait= of the DDS drivers: how a reader gets its sample to the
// thread that handles it. Parsed here once, so that every driver offers the
// same values with the same message.
#pragma once

#include <string>

namespace mwbench::common {

// waitset: block in the middleware's wait set; listener: the middleware's
// thread calls back; poll: spin on take (one busy CPU per spinning thread);
// chain: the client's listener takes each reply and writes the next request
// on the middleware's thread (Measurement::run_chained), as the middleware's
// own latency tools do: no thread of the driver's wakes per round trip.
enum class Wait { waitset, listener, poll, chain };

Wait parse_wait(const std::string& value);  // throws mwbench::UsageError
const char* to_string(Wait wait) noexcept;

// Whether a server's echo answers on the middleware's thread, in its listener
// (listener, and chain, whose server side is a listener's).
inline bool answers_in_listener(Wait wait) noexcept {
  return wait == Wait::listener || wait == Wait::chain;
}

// The fan-out (docs/driver-contract-fanout.md) with wait=poll spins one
// thread per subscriber and the publisher's: `subscribers` + 1 busy threads
// on this machine. Throws mwbench::UsageError, saying so, when that is more
// than the machine's CPUs (std::thread::hardware_concurrency()); a spinner
// without a CPU of its own holds the one another spinner needs for a whole
// time slice, and the figures would measure the scheduler.
void check_busy_fanout(Wait wait, int subscribers);

}  // namespace mwbench::common
