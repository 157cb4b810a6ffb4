// The DDS drivers' endpoint texts (dds_endpoint.hpp).
#include "common/dds_endpoint.hpp"

#include <unistd.h>

#include <initializer_list>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "common/endpoint_field.hpp"

namespace mwbench::common {

namespace {

// Domains 1..100: not 0, the default every other DDS program on the machine
// uses, and low enough that the well-known ports (7400 + 250 × domain + up to
// 29) stay below Linux's ephemeral range (32768 and up).
constexpr std::uint32_t kDomains = 100;

// The largest domain whose well-known ports fit in 16 bits.
constexpr unsigned long kMaxDomain = 232;

// Reads "dds:domain=N;key=value;..." into `domain` and the fields `fields`
// name; false when the scheme or a field is missing, or the domain is not a
// number from 0 to kMaxDomain.
bool read_fields(const std::string& text, std::uint32_t& domain,
                 std::initializer_list<std::pair<const char*, std::string*>> fields) {
  const std::string_view rest =
      std::string_view(text).substr(std::min<std::size_t>(4, text.size()));
  bool complete = text.starts_with("dds:");
  for (const auto& [key, value] : fields) {
    *value = endpoint_field(rest, key);
    complete = complete && !value->empty();
  }
  const std::string number = endpoint_field(rest, "domain");
  if (!complete || number.empty() || number.size() > 3 ||
      number.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(number) > kMaxDomain) {
    return false;
  }
  domain = static_cast<std::uint32_t>(std::stoul(number));
  return true;
}

// A subscriber process's endpoint text; throws std::runtime_error for another.
FanoutEndpoint parse_fanout_endpoint(const std::string& text) {
  FanoutEndpoint e;
  if (!read_fields(text, e.domain,
                   {{"partition", &e.partition},
                    {"event", &e.event_topic},
                    {"reply", &e.reply_topic},
                    {"address", &e.address}})) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not dds:domain=N;partition=P;event=TOPIC;reply=TOPIC;"
                             "address=IPV4 (a fan-out subscriber process's, N at most 232)");
  }
  return e;
}

}  // namespace

DdsEndpoint DdsEndpoint::for_process(const std::string& address) {
  const auto pid = static_cast<std::uint32_t>(::getpid());
  const std::string suffix = std::to_string(pid);
  return {1 + pid % kDomains, "mwbench_ping_" + suffix, "mwbench_pong_" + suffix, address};
}

DdsEndpoint DdsEndpoint::parse(const std::string& text) {
  DdsEndpoint e;
  if (!read_fields(text, e.domain,
                   {{"ping", &e.ping_topic}, {"pong", &e.pong_topic}, {"address", &e.address}})) {
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

std::string FanoutEndpoint::to_string() const {
  return "dds:domain=" + std::to_string(domain) + ";partition=" + partition +
         ";event=" + event_topic + ";reply=" + reply_topic + ";address=" + address;
}

FanoutPeers read_fanout_peers(const std::vector<std::string>& endpoints) {
  FanoutPeers peers;
  for (const std::string& text : endpoints) {
    const FanoutEndpoint e = parse_fanout_endpoint(text);
    if (!peers.partitions.empty() && e.domain != peers.domain) {
      throw std::runtime_error("subscriber processes in domains " + std::to_string(peers.domain) +
                               " and " + std::to_string(e.domain) + ": a fan-out needs one");
    }
    peers.domain = e.domain;
    peers.partitions.push_back(e.partition);
    peers.addresses.push_back(e.address);
  }
  return peers;
}

}  // namespace mwbench::common
