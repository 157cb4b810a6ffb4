// How a plan delivers events, checked (event_delivery_check.hpp).
#include "event_delivery_check.hpp"

#include <algorithm>
#include <iterator>
#include <mwccm/deployment/connection_settings.hpp>
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
  DeliveryChecker(const Plan& plan, const InterfaceOf& interface_of,
                  std::vector<PlanProblem>& problems)
      : plan_(plan), interface_of_(interface_of), problems_(problems) {}

  void run() {
    for (const auto& connection : plan_.connections) check(connection);
    for (const auto& instance : plan_.instances) check_filters(instance);
  }

 private:
  void problem(const SourceLocation& where, std::string message) {
    problems_.push_back({where, std::move(message)});
  }

  void check(const Connection& connection) {
    const std::string head = "connection '" + connection.name + "': ";
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
    const ConnectionSettings settings = connection_settings(plan_, connection);
    if (!is_event_connection(connection)) {
      problem(delivery->where, head + properties::kEventDelivery +
                                   " is for a connection from an event source to a consumer");
    }
    if (!one_of(delivery->resource_type, properties::kDeliveries)) {
      problem(delivery->where, head + properties::kEventDelivery + " '" + delivery->resource_type +
                                   "' is not one mwccm knows (" + listed(properties::kDeliveries) +
                                   ")");
    }
    if (settings.plain_cxx && settings.delivery != properties::kDirect) {
      problem(delivery->where, head + "is " + properties::kLocalInterface + " (plain C++) and " +
                                   "delivered through a " + settings.delivery + ": choose one");
    }
    for (const auto& property : delivery->properties) {
      if (property.name != properties::kGateway) {
        problem(property.where, head + properties::kEventDelivery + " has no property '" +
                                    property.name + "' (it has: " + properties::kGateway + ")");
      } else if (!one_of(property.value.text, properties::kGateways)) {
        problem(property.where, head + "gateway '" + property.value.text +
                                    "' is not one mwccm knows (" + listed(properties::kGateways) +
                                    ")");
      } else if (settings.delivery == properties::kDirect) {
        problem(property.where, head + "a gateway links channels; this connection is direct");
      }
    }
    if (settings.delivery == properties::kChannel) {
      for (const auto& endpoint : connection.internal_endpoints) {
        if (endpoint.kind == PortKind::EventConsumer)
          channel_sinks_.insert(endpoint.instance_id + "\n" + endpoint.port_name);
      }
    }
  }

  // Each mwccm.EventFilter.<sink>: a string, of a sink of the component,
  // that parses, on a sink some connection delivers through a channel.
  void check_filters(const Instance& instance) {
    const std::string prefix = properties::kEventFilterPrefix;
    for (const auto& property : instance.config_properties) {
      if (property.name.rfind(prefix, 0) != 0) continue;
      const std::string sink = property.name.substr(prefix.size());
      const std::string where = "configProperty " + property.name + " of '" + instance.name + "'";
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
          problem(property.where, where + ": " + component->label + " has no event sink '" + sink +
                                      "' (it has: " + component->port_names() + ")");
          continue;
        }
      }
      if (channel_sinks_.count(instance.id + "\n" + sink) == 0) {
        problem(property.where, where + ": a filter applies in a channel, and no connection to '" +
                                    instance.name + "." + sink + "' is delivered through one (" +
                                    properties::kEventDelivery + " \"" + properties::kChannel +
                                    "\")");
      }
    }
  }

  const Plan& plan_;
  const InterfaceOf& interface_of_;
  std::vector<PlanProblem>& problems_;
  std::set<std::string> channel_sinks_;  // "instance id\nsink" delivered through a channel
};

}  // namespace

void check_event_delivery(const Plan& plan, const InterfaceOf& interface_of,
                          std::vector<PlanProblem>& problems) {
  DeliveryChecker(plan, interface_of, problems).run();
}

}  // namespace mwccm::deployment
