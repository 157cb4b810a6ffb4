// A connection's settings (connection_settings.hpp).
#include <mwccm/deployment/detail/connection_settings.hpp>
#include <mwccm/deployment/plan_properties.hpp>

namespace mwccm::deployment {

ConnectionSettings connection_settings(const PlanIndex& plan, const Connection& connection) {
  ConnectionSettings settings;
  settings.delivery = properties::kDirect;
  settings.gateway = "iiop";
  settings.reliability = properties::kReliable;
  for (const auto& requirement : connection.deploy_requirements) {
    if (requirement.name == properties::kConnectionType &&
        requirement.resource_type == properties::kLocalInterface) {
      settings.plain_cxx = true;
    }
    if (requirement.name != properties::kEventDelivery) continue;
    settings.delivery = requirement.resource_type;
    for (const auto& property : requirement.properties) {
      if (property.name == properties::kGateway) settings.gateway = property.value.text;
      if (property.name == properties::kTopic) settings.topic = property.value.text;
      if (property.name == properties::kReliability) settings.reliability = property.value.text;
      if (property.name == properties::kHistoryDepth) settings.history_depth = property.value.text;
    }
  }
  for (const auto& endpoint : connection.internal_endpoints) {
    const Instance* source = plan.instance(endpoint.instance_id);
    const bool publishes =
        endpoint.kind == PortKind::EventEmitter || endpoint.kind == PortKind::EventPublisher;
    if (publishes && source != nullptr && settings.topic.empty())
      settings.topic = source->name + "/" + endpoint.port_name;
    if (endpoint.kind != PortKind::EventConsumer) continue;
    const Instance* consumer = plan.instance(endpoint.instance_id);
    if (consumer == nullptr) continue;
    for (const auto& property : consumer->config_properties) {
      if (property.name == properties::kEventFilterPrefix + endpoint.port_name)
        settings.filter = property.value.text;
    }
  }
  return settings;
}

}  // namespace mwccm::deployment
