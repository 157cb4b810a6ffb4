// The DDS drivers' endpoint texts (dds_endpoint.hpp).
#include "common/dds_endpoint.hpp"

#include <unistd.h>

#include <stdexcept>
#include <string_view>

#include "common/endpoint_field.hpp"

namespace mwbench::common {

namespace {

// Domains 1..100: not 0, the default every other DDS program on the machine
// uses, and low enough that the well-known ports (7400 + 250 × domain + up to
// 29) stay below Linux's ephemeral range (32768 and up).
constexpr std::uint32_t kDomains = 100;

// The largest domain whose well-known ports fit in 16 bits.
constexpr unsigned long kMaxDomain = 232;

// Reads the domain field of an endpoint text into `domain`; false if it is
// not a number from 0 to kMaxDomain.
bool parse_domain(const std::string& text, std::uint32_t& domain) {
  if (text.empty() || text.size() > 3 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoul(text) > kMaxDomain) {
    return false;
  }
  domain = static_cast<std::uint32_t>(std::stoul(text));
  return true;
}

std::string_view fields_of(const std::string& text) {
  return std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
}

}  // namespace

DdsEndpoint DdsEndpoint::for_process(const std::string& address) {
  const auto pid = static_cast<std::uint32_t>(::getpid());
  const std::string suffix = std::to_string(pid);
  return {1 + pid % kDomains, "mwbench_ping_" + suffix, "mwbench_pong_" + suffix, address};
}

DdsEndpoint DdsEndpoint::parse(const std::string& text) {
  DdsEndpoint e;
  const std::string_view fields = fields_of(text);
  e.ping_topic = endpoint_field(fields, "ping");
  e.pong_topic = endpoint_field(fields, "pong");
  e.address = endpoint_field(fields, "address");
  if (!text.starts_with("dds:") || !parse_domain(endpoint_field(fields, "domain"), e.domain) ||
      e.ping_topic.empty() || e.pong_topic.empty() || e.address.empty()) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;ping=TOPIC;pong=TOPIC;address=IPV4 (N at "
                             "most 232)");
  }
  return e;
}

std::string DdsEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";ping=" + ping_topic + ";pong=" + pong_topic +
         ";address=" + address;
}

FanoutEndpoint FanoutEndpoint::for_process(const std::string& address) {
  return {kFanoutDomain, "mwbench_fanout_" + std::to_string(::getpid()), kEventTopic, kReplyTopic,
          address};
}

FanoutEndpoint FanoutEndpoint::parse(const std::string& text) {
  FanoutEndpoint e;
  const std::string_view fields = fields_of(text);
  e.partition = endpoint_field(fields, "partition");
  e.event_topic = endpoint_field(fields, "event");
  e.reply_topic = endpoint_field(fields, "reply");
  e.address = endpoint_field(fields, "address");
  if (!text.starts_with("dds:") || !parse_domain(endpoint_field(fields, "domain"), e.domain) ||
      e.partition.empty() || e.event_topic.empty() || e.reply_topic.empty() || e.address.empty()) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;partition=P;event=TOPIC;reply=TOPIC;"
                             "address=IPV4 (a fan-out subscriber process's, N at most 232)");
  }
  return e;
}

std::string FanoutEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";partition=" + partition +
         ";event=" + event_topic + ";reply=" + reply_topic + ";address=" + address;
}

}  // namespace mwbench::common
