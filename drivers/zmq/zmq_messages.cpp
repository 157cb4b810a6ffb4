// The zmq driver's options and endpoint lines (zmq_messages.hpp).
#include "zmq_messages.hpp"

#include <sstream>

#include "mwbench/name_table.hpp"

namespace zmq_driver {

namespace {

constexpr mwbench::NameTable<Wait, 2> kWaits{{{{Wait::block, "block"}, {Wait::spin, "spin"}}}};

}  // namespace

Wait wait_option(const mwbench::DriverOptions& options) {
  return kWaits.parse(options.option("wait", "block"), "--option wait=");
}

const char* to_string(Wait wait) noexcept { return kWaits.name(wait); }

std::string join_endpoints(const std::vector<std::string>& endpoints) {
  std::string line;
  for (const auto& endpoint : endpoints) line += (line.empty() ? "" : " ") + endpoint;
  return line;
}

std::vector<std::string> split_endpoints(const std::string& line) {
  std::vector<std::string> endpoints;
  std::istringstream in(line);
  for (std::string endpoint; in >> endpoint;) endpoints.push_back(endpoint);
  return endpoints;
}

}  // namespace zmq_driver
