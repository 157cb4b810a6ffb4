// A component server's real-time configuration (a plan's component server
// instance, docs/deployment.md section 6), applied to the calling process:
// SCHED_FIFO at a priority, and the CPUs it may run on. A machine that does
// not permit it is a std::runtime_error saying so, never a silent fallback.
#pragma once

#include <omniORB4/CORBA.h>

#include <string>
#include <vector>

namespace mwccm::deployment {

struct ProcessSettings {
  int priority = 0;          // SCHED_FIFO priority 1..99; 0: the default policy
  std::string cpu_affinity;  // "0" or "0,1"; "": every CPU
  unsigned orb_threads = 0;  // the ORB's thread pool; 0: omniORB's default
};

void apply_process_settings(const ProcessSettings& settings);

// ORB_init for a process that hosts components (a component server, a
// compiled plan): the endpoint and the thread settings (`orb_threads`: a
// thread pool instead of a thread per connection) first, then every
// argument of the command line as given (the ORB takes its -ORB options).
CORBA::ORB_ptr init_component_orb(int argc, char** argv, const std::string& endpoint,
                                  const ProcessSettings& settings);

}  // namespace mwccm::deployment
