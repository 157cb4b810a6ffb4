// CPU affinity and SCHED_FIFO for the calling thread. Errors name the argument
// and say what would make it work, because these fail on the machine of
// someone who just wanted a number.
#include "mwbench/placement.hpp"

#include <pthread.h>
#include <sched.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "mwbench/options.hpp"

namespace mwbench {

std::string allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "unknown";
  // Ranges, as in /proc/self/status: "0-3,6".
  std::string out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    int last = cpu;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    if (!out.empty()) out += ',';
    out += std::to_string(cpu);
    if (last > cpu) out += '-' + std::to_string(last);
    cpu = last;
  }
  return out;
}

void pin_to_cpu(int cpu) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const bool known = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
  if (cpu < 0 || cpu >= CPU_SETSIZE || (known && !CPU_ISSET(cpu, &allowed))) {
    throw UsageError("--cpu " + std::to_string(cpu) +
                     ": not a CPU this process may run on (allowed: " + allowed_cpus() + ")");
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int err = pthread_setaffinity_np(pthread_self(), sizeof set, &set); err != 0) {
    throw std::runtime_error("--cpu " + std::to_string(cpu) +
                             ": cannot pin to the CPU: " + std::strerror(err));
  }
}

void set_fifo_priority(int priority) {
  const int lo = sched_get_priority_min(SCHED_FIFO);
  const int hi = sched_get_priority_max(SCHED_FIFO);
  if (priority < lo || priority > hi) {
    throw UsageError("--priority " + std::to_string(priority) + ": SCHED_FIFO priority must be " +
                     std::to_string(lo) + "-" + std::to_string(hi) + " (or 0 for the default)");
  }
  sched_param param{};
  param.sched_priority = priority;
  const int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
  if (err == EPERM) {
    throw std::runtime_error("--priority " + std::to_string(priority) +
                             ": not permitted to use SCHED_FIFO; needs root, CAP_SYS_NICE, or an "
                             "RLIMIT_RTPRIO (ulimit -r) of at least " +
                             std::to_string(priority));
  }
  if (err != 0) {
    throw std::runtime_error("--priority " + std::to_string(priority) +
                             ": cannot set SCHED_FIFO: " + std::strerror(err));
  }
}

int current_cpu() noexcept { return sched_getcpu(); }

SchedulingInfo current_scheduling() {
  int policy = 0;
  sched_param param{};
  if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return {"unknown", 0};
  switch (policy) {
    case SCHED_OTHER:
      return {"SCHED_OTHER", 0};
    case SCHED_FIFO:
      return {"SCHED_FIFO", param.sched_priority};
    case SCHED_RR:
      return {"SCHED_RR", param.sched_priority};
    case SCHED_BATCH:
      return {"SCHED_BATCH", 0};
    case SCHED_IDLE:
      return {"SCHED_IDLE", 0};
    default:
      return {"policy " + std::to_string(policy), param.sched_priority};
  }
}

}  // namespace mwbench
