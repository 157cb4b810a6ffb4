// Parsing --option wait=, and the fan-out's bound on spinning threads.
#include "common/wait_strategy.hpp"

#include <thread>

#include "mwbench/name_table.hpp"
#include "mwbench/options.hpp"

namespace mwbench::common {

namespace {

constexpr NameTable<Wait, 4> kWaits{{{{Wait::waitset, "waitset"},
                                      {Wait::listener, "listener"},
                                      {Wait::poll, "poll"},
                                      {Wait::chain, "chain"}}}};

}  // namespace

Wait parse_wait(const std::string& value) { return kWaits.parse(value, "--option wait="); }

const char* to_string(Wait wait) noexcept { return kWaits.name(wait); }

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
