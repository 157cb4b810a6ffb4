// How a plan delivers events, checked (event_delivery_check.hpp).
#include "event_delivery_check.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mwccm/delivery_check.hpp>
#include <mwccm/deployment/detail/connection_settings.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/event_filter.hpp>
#include <set>
#include <string>

namespace mwccm::deployment {
namespace {

// The strategies whose sinks are fed by a channel, where a filter applies.
std::string channel_feeding_names() {
  std::string names;
  for (const DeliveryCheck* strategy : delivery_checks().all()) {
    if (strategy->feeds_channels()) names += (names.empty() ? "" : ", ") + quote(strategy->name());
  }
  return names;
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
    if (settings.plain_cxx && settings.delivery != properties::kDirect) {
      problem(delivery->where, head + "is " + properties::kLocalInterface + " (plain C++) and " +
                                   "delivered through a " + shortened(settings.delivery) +
                                   ": choose one");
    }
    const DeliveryCheck* strategy = delivery_checks().find(delivery->resource_type);
    if (strategy == nullptr) {
      problem(delivery->where, head + properties::kEventDelivery + " " +
                                   quote(delivery->resource_type) + " is not one mwccm knows (" +
                                   delivery_checks().names() + ")");
      return;
    }
    if (const std::string why = strategy->unavailable(); !why.empty()) {
      problem(delivery->where,
              head + properties::kEventDelivery + " " + quote(strategy->name()) + ": " + why);
    }
    DeliveryUse use{connection.name, {}, {}, {}};
    for (const auto& endpoint : connection.internal_endpoints) {
      const Instance* instance = index_.instance(endpoint.instance_id);
      if (endpoint.kind == PortKind::EventConsumer || instance == nullptr) continue;
      use.source_instance = instance->name;
      use.source_port = endpoint.port_name;
    }
    for (const auto& property : delivery->properties) {
      if (check_property(head, *strategy, property))
        use.properties[property.name] = property.value.text;
    }
    if (auto& rule = rules_[strategy->name()]; rule || (rule = strategy->plan_rule())) {
      if (const std::string conflict = rule->add(use); !conflict.empty())
        problem(delivery->where, head + conflict);
    }
    if (!strategy->feeds_channels()) return;
    for (const auto& endpoint : connection.internal_endpoints) {
      if (endpoint.kind != PortKind::EventConsumer) continue;
      const std::string sink = endpoint.instance_id + "\n" + endpoint.port_name;
      channel_sinks_.insert(sink);
      sources_of_[sink].insert(use.source_instance + "." + use.source_port);
      check_one_way_into(sink, settings.delivery, connection, *delivery);
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

  // A property of the strategy's requirement, with a value it takes; false
  // when it is not one of its properties.
  bool check_property(const std::string& head, const DeliveryCheck& strategy,
                      const Property& property) {
    const std::vector<std::string> known = strategy.properties();
    if (std::find(known.begin(), known.end(), property.name) == known.end()) {
      problem(property.where, head + not_a_property_of(strategy, property.name));
      return false;
    }
    if (const std::string why = strategy.refuse_value(property.name, property.value.text);
        !why.empty()) {
      problem(property.where, head + why);
    }
    return true;
  }

  // Why `property` is not one of `strategy`'s: another strategy's, or none's.
  static std::string not_a_property_of(const DeliveryCheck& strategy, const std::string& property) {
    const std::string in = " (" + std::string(strategy.name()) + ")";
    for (const DeliveryCheck* other : delivery_checks().all()) {
      const std::vector<std::string> its = other->properties();
      if (std::find(its.begin(), its.end(), property) != its.end()) {
        return quote(property) + " is a property of a " + other->name() +
               " connection; this one is " + strategy.name();
      }
    }
    std::string names;
    for (const std::string& name : strategy.properties())
      names += (names.empty() ? "" : ", ") + name;
    return std::string(properties::kEventDelivery) + " " + quote(strategy.name()) +
           " has no property " + quote(property) + " (it has: " + (names.empty() ? "none" : names) +
           ")";
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
                                    " " + channel_feeding_names() + ")");
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
  // What each strategy's connections must agree on across the plan, by its name.
  std::map<std::string, std::unique_ptr<DeliveryPlanRule>> rules_;
};

}  // namespace

void check_event_delivery(const PlanIndex& plan, const InterfaceOf& interface_of,
                          std::vector<PlanProblem>& problems) {
  DeliveryChecker(plan, interface_of, problems).run();
}

}  // namespace mwccm::deployment
