// Applying a component server's real-time configuration (process_settings.hpp).
#include <sched.h>

#include <cerrno>
#include <cstring>
#include <mwccm/deployment/process_settings.hpp>
#include <sstream>
#include <stdexcept>

namespace mwccm::deployment {

void apply_process_settings(const ProcessSettings& settings) {
  if (!settings.cpu_affinity.empty()) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    std::istringstream list(settings.cpu_affinity);
    std::string cpu;
    while (std::getline(list, cpu, ',')) {
      const int number = std::stoi(cpu);
      if (number < 0 || number >= CPU_SETSIZE)
        throw std::runtime_error("CPU " + cpu + " does not exist");
      CPU_SET(number, &cpus);
    }
    if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
      throw std::runtime_error("CPU affinity '" + settings.cpu_affinity +
                               "' refused (sched_setaffinity: " + std::strerror(errno) +
                               "): does this machine have those CPUs?");
    }
  }
  if (settings.priority > 0) {
    sched_param parameter{};
    parameter.sched_priority = settings.priority;
    if (sched_setscheduler(0, SCHED_FIFO, &parameter) != 0) {
      const int error = errno;
      throw std::runtime_error(
          "SCHED_FIFO priority " + std::to_string(settings.priority) + " is not permitted here (" +
          std::strerror(error) +
          "): run as root, or give the program CAP_SYS_NICE, or raise RLIMIT_RTPRIO; "
          "a plan without mwccm.Process.Priority runs with the default policy");
    }
  }
}

std::vector<std::string> orb_options(const ProcessSettings& settings) {
  if (settings.orb_threads == 0) return {};
  return {"-ORBthreadPerConnectionPolicy", "0", "-ORBmaxServerThreadPoolSize",
          std::to_string(settings.orb_threads)};
}

}  // namespace mwccm::deployment
