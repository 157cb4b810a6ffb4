// Where and how the measuring thread runs: CPU affinity and scheduling policy.
//
// run_driver() applies --cpu and --priority to the main thread before any other
// thread exists, so threads a middleware creates later (omniORB's worker pool,
// for instance) inherit both.
#pragma once

#include <optional>
#include <string>

namespace mwbench {

// Pins the calling thread to `cpu`. Throws UsageError naming --cpu and the
// CPUs this process may use when `cpu` is not one of them.
void pin_to_cpu(int cpu);

// Switches the calling thread to SCHED_FIFO at `priority` (1-99). Throws
// UsageError when out of range, std::runtime_error naming the priority and
// the permission needed when the kernel refuses (EPERM).
void set_fifo_priority(int priority);

// The CPU the calling thread runs on now (sched_getcpu), -1 if unknown.
int current_cpu() noexcept;

// The CPUs this process may run on, as "0-1,4" (for error messages).
std::string allowed_cpus();

struct SchedulingInfo {
  std::string policy;  // "SCHED_OTHER", "SCHED_FIFO", ...
  int priority = 0;
};

// The calling thread's policy and priority.
SchedulingInfo current_scheduling();

}  // namespace mwbench
