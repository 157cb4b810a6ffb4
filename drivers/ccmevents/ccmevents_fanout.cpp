#include "ccmevents_fanout.hpp"

#include <mwccm/channel_counters_json.hpp>
#include <sstream>
#include <stdexcept>

#include "common/endpoint_field.hpp"

namespace ccmevents {

namespace {
std::string required_field(const std::string& line, const char* key) {
  std::string value = mwbench::common::endpoint_field(line, key);
  if (value.empty()) {
    throw std::runtime_error(std::string("the subscriber endpoint has no ") + key +
                             "= (a subscriber process of another delivery?): " + line);
  }
  return value;
}
}  // namespace

namespace {
std::vector<std::string> listed(const std::string& line, const char* key) {
  std::vector<std::string> items;
  std::istringstream list(required_field(line, key));
  for (std::string item; std::getline(list, item, ',');) items.push_back(item);
  return items;
}
}  // namespace

std::string endpoints_field(const std::vector<std::string>& endpoints) {
  std::string field = "endpoints=";
  for (const auto& endpoint : endpoints) field += (field.back() == '=' ? "" : ",") + endpoint;
  return field;
}

std::vector<std::string> subscriber_endpoints(const std::string& line) {
  return listed(line, "endpoints");
}

std::vector<std::string> consumer_references(const std::string& line) {
  return listed(line, "consumers");
}

std::string channel_endpoint(const std::string& line) { return required_field(line, "channel"); }

nlohmann::json counters_json(const mwccm::EventChannel& channel) {
  nlohmann::json suppliers = nlohmann::json::object();
  for (const auto& from : channel.inbound())
    suppliers[from.supplier] = mwccm::supplier_counters_json(from);
  return mwccm::channel_counters_json(channel.counters(), std::move(suppliers));
}

}  // namespace ccmevents
