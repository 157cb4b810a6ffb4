// A component server's settings, checked (server_settings_check.hpp).
#include "server_settings_check.hpp"

#include <arpa/inet.h>

#include <mwccm/deployment/plan_properties.hpp>
#include <string>

namespace mwccm::deployment {
namespace {

bool is_integer(ValueKind kind) {
  return kind == ValueKind::Short || kind == ValueKind::UShort || kind == ValueKind::Long ||
         kind == ValueKind::ULong || kind == ValueKind::LongLong || kind == ValueKind::ULongLong ||
         kind == ValueKind::Octet;
}

bool is_ipv4(const std::string& text) {
  in_addr address{};
  return inet_pton(AF_INET, text.c_str(), &address) == 1;
}

// Every interface of the host: an IPv4 or IPv6 "any" address however it is
// spelt, or no address at all.
bool is_wildcard(const std::string& text) {
  in_addr v4{};
  in6_addr v6{};
  return text.empty() || text == "*" ||
         (inet_pton(AF_INET, text.c_str(), &v4) == 1 && v4.s_addr == htonl(INADDR_ANY)) ||
         (inet_pton(AF_INET6, text.c_str(), &v6) == 1 && IN6_IS_ADDR_UNSPECIFIED(&v6));
}

// "239.255.77.1:45000": a multicast group (224.0.0.0/4) and a port.
bool is_multicast_group(const std::string& text) {
  const auto colon = text.rfind(':');
  in_addr group{};
  if (colon == std::string::npos || inet_pton(AF_INET, text.substr(0, colon).c_str(), &group) != 1)
    return false;
  const std::string port = text.substr(colon + 1);
  return (ntohl(group.s_addr) >> 28) == 0xE && !port.empty() && port.size() <= 5 &&
         port.find_first_not_of("0123456789") == std::string::npos && std::stoul(port) >= 1 &&
         std::stoul(port) <= 65535;
}

bool allows_wildcard(const Instance& server) {
  const Property* allowed = find_property(server.config_properties, properties::kAllowWildcard);
  return allowed != nullptr && allowed->value.kind == ValueKind::Boolean &&
         allowed->value.text == "true";
}

}  // namespace

void check_server_settings(const Instance& server, std::vector<PlanProblem>& problems) {
  const auto problem = [&](const Property& property, const std::string& message,
                           bool known = true) {
    problems.push_back(
        {property.where, "configProperty " + (known ? property.name : quote(property.name)) +
                             " of component server " + quote(server.name) + " " + message});
  };
  for (const Property& property : server.config_properties) {
    const std::string& text = property.value.text;
    if (property.name == properties::kPriority || property.name == properties::kOrbThreads) {
      if (!is_integer(property.value.kind)) {
        problem(property, "is an integer, not a " + tk_name(property.value.kind));
        continue;
      }
      const long long value = std::stoll(text);
      if (property.name == properties::kPriority && (value < 0 || value > 99))
        problem(property, "is a SCHED_FIFO priority from 1 to 99, or 0 for none");
      if (property.name == properties::kOrbThreads && (value < 1 || value > 1024))
        problem(property, "is from 1 to 1024");
    } else if (property.name == properties::kCpuAffinity) {
      const bool valid = property.value.kind == ValueKind::String && !text.empty() &&
                         text.find_first_not_of("0123456789,") == std::string::npos &&
                         text.front() != ',' && text.back() != ',' &&
                         text.find(",,") == std::string::npos;
      if (!valid) problem(property, "is a tk_string of CPU numbers, such as \"0\" or \"0,1\"");
    } else if (property.name == properties::kChannelAddress ||
               property.name == properties::kMulticastInterface) {
      if (is_wildcard(text) && !allows_wildcard(server)) {
        problem(property, "is " + quote(text) +
                              ", every interface of the host: a server binds to loopback "
                              "unless told otherwise. Name one address, or say " +
                              properties::kAllowWildcard + " true to mean it");
      } else if (!is_ipv4(text)) {
        problem(property, "is a tk_string IPv4 address, such as \"198.18.0.2\"");
      }
    } else if (property.name == properties::kAllowWildcard) {
      if (property.value.kind != ValueKind::Boolean) problem(property, "is a tk_boolean");
    } else if (property.name == properties::kDdsDomain) {
      // Cyclone's well-known ports, 7400 + 250 × domain + ..., end below 65536.
      if (!is_integer(property.value.kind) || std::stoll(text) < 0 || std::stoll(text) > 232)
        problem(property, "is an integer DDS domain id from 0 to 232");
    } else if (property.name == properties::kMulticastGroup) {
      if (!is_multicast_group(text)) {
        problem(property,
                "is a tk_string GROUP:PORT, the group in 224.0.0.0/4, such as "
                "\"239.255.77.1:45000\"");
      }
    } else {
      problem(property,
              std::string("is not one mwccm knows (") + properties::kPriority + ", " +
                  properties::kCpuAffinity + ", " + properties::kOrbThreads + ", " +
                  properties::kChannelAddress + ", " + properties::kMulticastGroup + ", " +
                  properties::kMulticastInterface + ", " + properties::kAllowWildcard + ", " +
                  properties::kDdsDomain + ")",
              false);
    }
  }
}

}  // namespace mwccm::deployment
