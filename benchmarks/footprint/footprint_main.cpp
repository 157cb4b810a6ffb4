// mwccm-footprint-plain / mwccm-footprint-components COUNT
//
// Hosts COUNT objects (plain servants or components, whichever host this
// program was linked with), calls the first once, and prints one JSON line:
//   {"kind": "plain", "count": 1000, "rss_before_kib": ..., "vm_rss_kib": ..., "vm_hwm_kib": ...}
// rss_before_kib is VmRSS after ORB_init and before the first object, so that
// run.py can report both the whole process and what the objects added.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "host.hpp"

namespace {

// A field of /proc/self/status in KiB ("VmRSS:     1234 kB"); -1 if absent.
long status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0)
      return std::strtol(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " COUNT\n";
    return 2;
  }
  const unsigned long count = std::strtoul(argv[1], nullptr, 10);
  if (count == 0) {
    std::cerr << argv[0] << ": COUNT must be at least 1\n";
    return 2;
  }
  const char* orb_options[][2] = {{"endPoint", "giop:tcp:127.0.0.1:0"}, {nullptr, nullptr}};
  int orb_argc = 1;
  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, argv, "omniORB4", orb_options);
  {
    std::unique_ptr<footprint::Host> host = footprint::make_host(orb.in());
    const long before = status_kib("VmRSS");
    host->host(count);
    if (host->call_first() != 1) {
      std::cerr << argv[0] << ": the first object did not answer as expected\n";
      return 1;
    }
    std::cout << "{\"kind\": \"" << host->kind() << "\", \"count\": " << count
              << ", \"rss_before_kib\": " << before << ", \"vm_rss_kib\": " << status_kib("VmRSS")
              << ", \"vm_hwm_kib\": " << status_kib("VmHWM") << "}" << std::endl;
  }
  orb->destroy();
  return 0;
}
