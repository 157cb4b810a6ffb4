// Parsing --option wait=, and the fan-out's bound on spinning threads.
#include "common/wait_strategy.hpp"

#include <thread>

#include "mwbench/options.hpp"

namespace mwbench::common {

Wait parse_wait(const std::string& value) {
  if (value == "waitset") return Wait::waitset;
  if (value == "listener") return Wait::listener;
  if (value == "poll") return Wait::poll;
  if (value == "chain") return Wait::chain;
  throw UsageError("--option wait=" + value + ": allowed values: waitset, listener, poll, chain");
}

const char* to_string(Wait wait) noexcept {
  switch (wait) {
    case Wait::waitset:
      return "waitset";
    case Wait::listener:
      return "listener";
    case Wait::poll:
      return "poll";
    case Wait::chain:
      return "chain";
  }
  return "?";
}

void check_busy_fanout(Wait wait, int subscribers) {
  if (wait != Wait::poll) return;
  const unsigned cpus = std::thread::hardware_concurrency();
  if (cpus == 0 || static_cast<unsigned>(subscribers) + 1 <= cpus) return;
  throw UsageError("--option wait=poll with --subscribers " + std::to_string(subscribers) +
                   ": fanout would spin " + std::to_string(subscribers + 1) +
                   " threads (one per subscriber and the publisher) on a machine with " +
                   std::to_string(cpus) +
                   " CPUs, so spinners would wait for each other's time slices; use "
                   "wait=waitset or wait=listener, or --subscribers " +
                   std::to_string(cpus - 1) + " at most");
}

}  // namespace mwbench::common
