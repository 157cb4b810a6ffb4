// The fan-out's endpoint, its queue settings and its middleware_config.
#include "iceoryx_fanout.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace iceoryx {

namespace {

constexpr std::string_view kScheme = "iox:";

// "3-5" -> first 3, count 3; false unless two numbers, first <= last.
bool parse_range(std::string_view text, int& first, int& count) {
  const std::size_t dash = text.find('-');
  if (dash == std::string_view::npos) return false;
  int last = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto a = std::from_chars(begin, begin + dash, first);
  const auto b = std::from_chars(begin + dash + 1, end, last);
  if (a.ec != std::errc() || a.ptr != begin + dash || b.ec != std::errc() || b.ptr != end ||
      first < 0 || last < first) {
    return false;
  }
  count = last - first + 1;
  return true;
}

std::string range(int first, int count) {
  return std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

FanoutEndpoint FanoutEndpoint::parse(const std::string& text) {
  FanoutEndpoint e;
  const std::string_view fields =
      std::string_view(text).substr(std::min(kScheme.size(), text.size()));
  e.service = endpoint_field(fields, "service");
  e.instance = endpoint_field(fields, "instance");
  e.event = endpoint_field(fields, "event");
  e.reply = endpoint_field(fields, "reply");
  if (!text.starts_with(kScheme) || e.service.empty() || e.instance.empty() || e.event.empty() ||
      e.reply.empty() || !parse_range(endpoint_field(fields, "subscribers"), e.first, e.count)) {
    throw std::runtime_error("endpoint '" + text +
                             "' is not iox:service=S;instance=I;event=EVENT;reply=EVENT;"
                             "subscribers=FIRST-LAST");
  }
  return e;
}

std::string FanoutEndpoint::to_string() const {
  return std::string(kScheme) + "service=" + service + ";instance=" + instance + ";event=" + event +
         ";reply=" + reply + ";subscribers=" + range(first, count);
}

std::string FanoutEndpoint::event_name() const { return service + "/" + instance + "/" + event; }
std::string FanoutEndpoint::reply_name() const { return service + "/" + instance + "/" + reply; }

bool FanoutEndpoint::same_services(const FanoutEndpoint& other) const noexcept {
  return service == other.service && instance == other.instance && event == other.event &&
         reply == other.reply;
}

FanoutEndpoint merge_endpoints(const std::vector<std::string>& texts, int subscribers) {
  if (texts.empty()) throw std::runtime_error("a fan-out client needs an endpoint");
  FanoutEndpoint merged = FanoutEndpoint::parse(texts.front());
  std::string ranges;
  int next = 0;  // the subscriber the next process must start with
  bool in_order = true;
  for (const std::string& text : texts) {
    const FanoutEndpoint e = FanoutEndpoint::parse(text);
    if (!e.same_services(merged)) {
      throw std::runtime_error("endpoints name different services: " + merged.event_name() +
                               " and " + e.event_name() + " ('" + text + "')");
    }
    in_order = in_order && e.first == next;
    next = e.first + e.count;
    ranges += (ranges.empty() ? "" : ", ") + range(e.first, e.count);
  }
  if (!in_order || next != subscribers) {
    throw std::runtime_error("the subscriber processes host subscribers " + ranges + ", not 0-" +
                             std::to_string(subscribers - 1) + " in order (--subscribers " +
                             std::to_string(subscribers) + ")");
  }
  merged.first = 0;
  merged.count = subscribers;
  return merged;
}

iox::popo::SubscriberOptions reply_subscriber_options() {
  iox::popo::SubscriberOptions options = subscriber_options();
  options.queueCapacity = kReplyQueueCapacity;
  return options;
}

nlohmann::json fanout_config(const FanoutEndpoint& endpoint, Wait wait) {
  nlohmann::json config = runtime_config(wait);
  config["services"] = {{"event", endpoint.event_name()}, {"reply", endpoint.reply_name()}};
  config["event_subscriber"] = subscriber_config(1);
  config["reply_subscriber"] = subscriber_config(kReplyQueueCapacity);
  return config;
}

}  // namespace iceoryx
