// What every DDS driver describes (dds_driver_roles.hpp).
#include "common/dds_driver_roles.hpp"

namespace mwbench::common {

Description dds_description(const std::string& driver, const std::string& middleware,
                            const std::string& version, const std::string& wait_help) {
  Description d(driver, middleware, version);
  d.operations = {{"roundtrip", false}, {"octets", true}, {kFanoutOperation, true}};
  // A fan-out's event waits for every subscriber's reply: closed loop only.
  d.open_loop = {"roundtrip", "octets"};
  d.options = {
      {"wait", wait_help},
      {"verify",
       "the server checks every payload byte and the pong says whether it was intact: "
       "0 (default) or 1"},
  };
  d.max_threads = 1;
  d.max_servants = 1;
  d.max_subscribers = 64;
  return d;
}

}  // namespace mwbench::common
