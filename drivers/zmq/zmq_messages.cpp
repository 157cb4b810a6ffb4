// The zmq driver's options and endpoint lines (zmq_messages.hpp).
#include "zmq_messages.hpp"

#include <sstream>

namespace zmq_driver {

Wait wait_option(const mwbench::DriverOptions& options) {
  const std::string wait = options.option("wait", "block");
  if (wait == "block") return Wait::block;
  if (wait == "spin") return Wait::spin;
  throw mwbench::UsageError("--option wait=" + wait + ": must be block or spin");
}

const char* to_string(Wait wait) noexcept { return wait == Wait::block ? "block" : "spin"; }

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
