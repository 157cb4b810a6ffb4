// How a plan delivers events, checked (event_delivery_check.hpp).
#include "event_delivery_check.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <mwccm/deployment/detail/connection_settings.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/event_filter.hpp>
#include <set>
#include <string>

namespace mwccm::deployment {
namespace {

template <std::size_t N>
bool one_of(const std::string& value, const char* const (&known)[N]) {
  return std::find(std::begin(known), std::end(known), value) != std::end(known);
}

template <std::size_t N>
std::string listed(const char* const (&known)[N]) {
  std::string text;
  for (const char* value : known) text += (text.empty() ? "" : ", ") + std::string(value);
  return text;
}

bool is_event_connection(const Connection& connection) {
  return std::any_of(connection.internal_endpoints.begin(), connection.internal_endpoints.end(),
                     [](const Endpoint& e) { return e.kind == PortKind::EventConsumer; });
}

class DeliveryChecker {
 public:
  DeliveryChecker(const PlanIndex& index, const InterfaceOf& interface_of,
                  std::vector<PlanProblem>& problems)
      : plan_(index.plan()), index_(index), interface_of_(interface_of), problems_(problems) {}

  void run() {
    for (const auto& connection : plan_.connections) check(connection);
    for (const auto& instance : plan_.instances) check_filters(instance);
  }

 private:
  void problem(const SourceLocation& where, std::string message) {
    problems_.push_back({where, std::move(message)});
  }

  void check(const Connection& connection) {
    const std::string head = "connection " + quote(connection.name) + ": ";
    const Requirement* delivery = nullptr;
    for (const auto& requirement : connection.deploy_requirements) {
      if (requirement.name != properties::kEventDelivery) continue;
      if (delivery != nullptr) {
        problem(requirement.where, head + "has two " + properties::kEventDelivery);
        continue;
      }
      delivery = &requirement;
    }
    if (delivery == nullptr) return;
    const ConnectionSettings settings = connection_settings(index_, connection);
    if (!is_event_connection(connection)) {
      problem(delivery->where, head + properties::kEventDelivery +
                                   " is for a connection from an event source to a consumer");
    }
    if (!one_of(delivery->resource_type, properties::kDeliveries)) {
      problem(delivery->where, head + properties::kEventDelivery + " " +
                                   quote(delivery->resource_type) + " is not one mwccm knows (" +
                                   listed(properties::kDeliveries) + ")");
    }
    if (settings.plain_cxx && settings.delivery != properties::kDirect) {
      problem(delivery->where, head + "is " + properties::kLocalInterface + " (plain C++) and " +
                                   "delivered through a " + shortened(settings.delivery) +
                                   ": choose one");
    }
    if (settings.delivery == properties::kDds && !MWCCM_WITH_DDS) {
      problem(delivery->where, head + properties::kEventDelivery + " '" + properties::kDds +
                                   "': this mwccm was built without Cyclone DDS (configure it "
                                   "again with cyclonedds-dev and cyclonedds-tools installed)");
    }
    for (const auto& property : delivery->properties) check_property(head, settings, property);
    if (settings.delivery == properties::kDds) check_topic(connection, settings, *delivery);
    if (settings.delivery == properties::kChannel || settings.delivery == properties::kDds) {
      std::string source;  // "instance.port", as a filter names it
      for (const auto& endpoint : connection.internal_endpoints) {
        const Instance* instance = index_.instance(endpoint.instance_id);
        if (endpoint.kind != PortKind::EventConsumer && instance != nullptr)
          source = instance->name + "." + endpoint.port_name;
      }
      for (const auto& endpoint : connection.internal_endpoints) {
        if (endpoint.kind != PortKind::EventConsumer) continue;
        const std::string sink = endpoint.instance_id + "\n" + endpoint.port_name;
        channel_sinks_.insert(sink);
        sources_of_[sink].insert(source);
        check_one_way_into(sink, settings.delivery, connection, *delivery);
      }
    }
  }

  // A sink takes events through a channel or through DDS, not both: its
  // container hands the plan one endpoint per sink, of one kind.
  void check_one_way_into(const std::string& sink, const std::string& delivery,
                          const Connection& connection, const Requirement& where) {
    const auto [first, inserted] = delivery_into_.try_emplace(sink, delivery, connection.name);
    if (inserted || first->second.first == delivery) return;
    problem(where.where, "connection " + quote(connection.name) + ": delivers through " + delivery +
                             " into the sink that connection " + quote(first->second.second) +
                             " feeds through " + first->second.first +
                             ": a sink takes one of them");
  }

  // A property of the delivery: the gateway of a channel, the topic and QoS
  // of a dds connection, each with a value mwccm knows.
  void check_property(const std::string& head, const ConnectionSettings& settings,
                      const Property& property) {
    const std::string& value = property.value.text;
    const bool dds_property = one_of(property.name, properties::kDdsProperties);
    if (property.name != properties::kGateway && !dds_property) {
      problem(property.where, head + properties::kEventDelivery + " has no property " +
                                  quote(property.name) + " (it has: " + properties::kGateway +
                                  ", " + listed(properties::kDdsProperties) + ")");
    } else if (property.name == properties::kGateway && !one_of(value, properties::kGateways)) {
      problem(property.where, head + "gateway " + quote(value) + " is not one mwccm knows (" +
                                  listed(properties::kGateways) + ")");
    } else if (property.name == properties::kGateway && settings.delivery != properties::kChannel) {
      problem(property.where, head + "a gateway links channels; this connection is " +
                                  shortened(settings.delivery));
    } else if (dds_property && settings.delivery != properties::kDds) {
      problem(property.where, head + quote(property.name) + " is a property of a " +
                                  properties::kDds + " connection; this one is " +
                                  shortened(settings.delivery));
    } else if (property.name == properties::kReliability &&
               !one_of(value, properties::kReliabilities)) {
      problem(property.where, head + "reliability " + quote(value) + " is not one mwccm knows (" +
                                  listed(properties::kReliabilities) + ")");
    } else if (property.name == properties::kHistoryDepth && !is_depth(value)) {
      problem(property.where, head + "history_depth " + quote(value) +
                                  " is not a depth from 1 to 1000000 (leave it out for "
                                  "KEEP_ALL, the default)");
    }
  }

  // The topic: a name DDS takes, carrying one source's events with one QoS.
  void check_topic(const Connection& connection, const ConnectionSettings& settings,
                   const Requirement& delivery) {
    const std::string head = "connection " + quote(connection.name) + ": ";
    if (!is_topic_name(settings.topic)) {
      problem(delivery.where, head + "DDS topic " + quote(settings.topic) +
                                  " is not a topic name (letters, digits, '_' and '/', not "
                                  "starting with a digit); name one with " +
                                  properties::kEventDelivery + " property " + properties::kTopic);
      return;
    }
    std::string source;
    for (const auto& endpoint : connection.internal_endpoints) {
      const Instance* instance = index_.instance(endpoint.instance_id);
      if (endpoint.kind != PortKind::EventConsumer && instance != nullptr)
        source = instance->name + "." + endpoint.port_name;
    }
    const auto [known, made] =
        topics_.emplace(settings.topic, Topic{source, settings, connection.name});
    if (made) return;
    const Topic& first = known->second;
    if (first.source != source) {
      problem(delivery.where, head + "DDS topic " + quote(settings.topic) +
                                  " carries the events of " + shortened(first.source) +
                                  " already (connection " + quote(first.connection) +
                                  "): a topic carries one source's events");
    } else if (first.settings.reliability != settings.reliability ||
               first.settings.history_depth != settings.history_depth) {
      problem(delivery.where, head + "DDS topic " + quote(settings.topic) +
                                  " has another QoS in connection " + quote(first.connection) +
                                  ": a topic has one reliability and one history_depth");
    }
  }

  static bool is_topic_name(const std::string& name) {
    return !name.empty() && std::isdigit(static_cast<unsigned char>(name.front())) == 0 &&
           std::all_of(name.begin(), name.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '/';
           });
  }

  static bool is_depth(const std::string& text) {
    return !text.empty() && text.size() <= 7 &&
           text.find_first_not_of("0123456789") == std::string::npos && std::stoul(text) >= 1 &&
           std::stoul(text) <= 1000000;
  }

  // Each mwccm.EventFilter.<sink>: a string, of a sink of the component,
  // that parses, on a sink some connection delivers through a channel.
  void check_filters(const Instance& instance) {
    const std::string prefix = properties::kEventFilterPrefix;
    for (const auto& property : instance.config_properties) {
      if (property.name.rfind(prefix, 0) != 0) continue;
      const std::string sink = property.name.substr(prefix.size());
      const std::string where =
          "configProperty " + shortened(property.name) + " of " + quote(instance.name);
      if (property.value.kind != ValueKind::String) {
        problem(property.where, where + " is a tk_string");
        continue;
      }
      try {
        (void)EventFilter::parse(property.value.text);
      } catch (const std::invalid_argument& error) {
        problem(property.where, where + ": " + error.what());
      }
      if (const ComponentInterface* component = interface_of_(instance)) {
        const PortDescription* port = component->find_port(sink);
        if (port == nullptr || port->kind != PortKind::EventConsumer) {
          problem(property.where, where + ": " + component->label + " has no event sink " +
                                      quote(sink) + " (it has: " + component->port_names() + ")");
          continue;
        }
      }
      if (channel_sinks_.count(instance.id + "\n" + sink) == 0) {
        problem(property.where, where + ": a filter applies in a channel, and no connection to " +
                                    quote(instance.name + "." + sink) +
                                    " is delivered through one (" + properties::kEventDelivery +
                                    " \"" + properties::kChannel + "\" or \"" + properties::kDds +
                                    "\")");
        continue;
      }
      check_filter_sources(instance, sink, property);
    }
  }

  // A `source=` term must name a source some channel connection brings to
  // that sink: any other would withhold every event, silently.
  void check_filter_sources(const Instance& instance, const std::string& sink,
                            const Property& property) {
    EventFilter filter;
    try {
      filter = EventFilter::parse(property.value.text);
    } catch (const std::invalid_argument&) {
      return;  // said above
    }
    const std::set<std::string>& sources = sources_of_[instance.id + "\n" + sink];
    for (const auto& term : filter.terms()) {
      if (!term.source || sources.count(term.value) != 0) continue;
      problem(property.where,
              "configProperty " + shortened(property.name) + " of " + quote(instance.name) +
                  ": source " + quote(term.value) + " reaches " +
                  quote(instance.name + "." + sink) +
                  " through no channel connection (those that do: " + some_of(sources) + ")");
    }
  }

  const Plan& plan_;
  const PlanIndex& index_;
  const InterfaceOf& interface_of_;
  std::vector<PlanProblem>& problems_;
  std::set<std::string> channel_sinks_;  // "instance id\nsink" delivered through a channel
  std::map<std::string, std::set<std::string>> sources_of_;  // of such a sink: "instance.port"
  // Such a sink's delivery (channel or dds), and the first connection that chose it.
  std::map<std::string, std::pair<std::string, std::string>> delivery_into_;
  struct Topic {
    std::string source;  // "instance.port"
    ConnectionSettings settings;
    std::string connection;
  };
  std::map<std::string, Topic> topics_;  // the dds connections' topics, by name
};

}  // namespace

void check_event_delivery(const PlanIndex& plan, const InterfaceOf& interface_of,
                          std::vector<PlanProblem>& problems) {
  DeliveryChecker(plan, interface_of, problems).run();
}

}  // namespace mwccm::deployment
