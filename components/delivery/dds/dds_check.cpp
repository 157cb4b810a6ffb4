// The plan check of the `dds` delivery strategy (delivery_check.hpp): its
// topic and QoS, and, across a plan, one source and one QoS per topic.
// MWCCM_WITH_DDS says whether this build has Cyclone DDS.
#include <algorithm>
#include <cctype>
#include <map>
#include <mwccm/delivery_check.hpp>
#include <mwccm/user_input.hpp>

namespace mwccm {
namespace {

struct TopicUse {
  std::string name;  // default: the source's "INSTANCE/PORT" (a topic name has no '.')
  std::string reliability;
  std::string history_depth;  // "" for KEEP_ALL
  std::string source;         // "instance.port"
};

TopicUse topic_of(const DeliveryUse& use) {
  const auto value = [&](const char* property, std::string otherwise) {
    const auto found = use.properties.find(property);
    return found == use.properties.end() ? otherwise : found->second;
  };
  return {value("topic", use.source_instance + "/" + use.source_port),
          value("reliability", "reliable"), value("history_depth", ""),
          use.source_instance + "." + use.source_port};
}

bool is_topic_name(const std::string& name) {
  return !name.empty() && std::isdigit(static_cast<unsigned char>(name.front())) == 0 &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '/';
         });
}

bool is_depth(const std::string& text) {
  return !text.empty() && text.size() <= 7 &&
         text.find_first_not_of("0123456789") == std::string::npos && std::stoul(text) >= 1 &&
         std::stoul(text) <= 1000000;
}

// A topic carries one source's events with one QoS.
class OneSourcePerTopic final : public DeliveryPlanRule {
 public:
  std::string add(const DeliveryUse& use) override {
    const TopicUse topic = topic_of(use);
    if (!is_topic_name(topic.name)) {
      return "DDS topic " + quote(topic.name) +
             " is not a topic name (letters, digits, '_' and '/', not starting with a digit); "
             "name one with mwccm.EventDelivery property topic";
    }
    const auto [known, made] = topics_.emplace(topic.name, std::pair(topic, use.connection));
    if (made) return {};
    const auto& [first, connection] = known->second;
    if (first.source != topic.source) {
      return "DDS topic " + quote(topic.name) + " carries the events of " + first.source +
             " already (connection " + quote(connection) + "): a topic carries one source's events";
    }
    if (first.reliability != topic.reliability || first.history_depth != topic.history_depth) {
      return "DDS topic " + quote(topic.name) + " has another QoS in connection " +
             quote(connection) + ": a topic has one reliability and one history_depth";
    }
    return {};
  }

 private:
  std::map<std::string, std::pair<TopicUse, std::string>> topics_;  // and the first connection
};

class DdsCheck final : public DeliveryCheck {
 public:
  const char* name() const noexcept override { return "dds"; }
  std::vector<std::string> properties() const override {
    return {"topic", "reliability", "history_depth"};
  }
  std::string refuse_value(const std::string& property, const std::string& value) const override {
    if (property == "reliability" && value != "reliable" && value != "best_effort")
      return "reliability " + quote(value) + " is not one mwccm knows (reliable, best_effort)";
    if (property == "history_depth" && !is_depth(value)) {
      return "history_depth " + quote(value) +
             " is not a depth from 1 to 1000000 (leave it out for KEEP_ALL, the default)";
    }
    return {};  // the topic: by plan_rule(), with its default
  }
  std::string unavailable() const override {
    return MWCCM_WITH_DDS ? ""
                          : "this mwccm was built without Cyclone DDS (configure it again with "
                            "cyclonedds-dev and cyclonedds-tools installed)";
  }
  std::unique_ptr<DeliveryPlanRule> plan_rule() const override {
    return std::make_unique<OneSourcePerTopic>();
  }
};

MWCCM_REGISTER_DELIVERY_CHECK(DdsCheck);

}  // namespace
}  // namespace mwccm
