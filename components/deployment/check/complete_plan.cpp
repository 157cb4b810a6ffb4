// Completing a .config plan from the interface descriptions (plan_check.hpp):
// what DnCX11 leaves implied, the kind of a port and the type of an enum,
// read from the components' .ccd before the check.
#include <mwccm/deployment/plan_check.hpp>

namespace mwccm::deployment {

void complete_plan(Plan& plan, const InterfaceCatalog& interfaces) {
  const PlanIndex index(plan);  // the plan's elements stay where they are
  auto component_of = [&](const std::string& instance_id) -> const ComponentInterface* {
    const Instance* instance = index.instance(instance_id);
    return instance == nullptr ? nullptr : interfaces.find_for(index, *instance);
  };
  for (auto& connection : plan.connections) {
    for (auto& endpoint : connection.internal_endpoints) {
      if (!endpoint.kind_implied) continue;
      const ComponentInterface* component = component_of(endpoint.instance_id);
      const PortDescription* port =
          component == nullptr ? nullptr : component->find_port(endpoint.port_name);
      // A port that is not there, or of the other family, is left to check_plan.
      if (port == nullptr) continue;
      const bool same_family =
          is_receptacle(endpoint.kind) ? is_receptacle(port->kind) : is_event_source(port->kind);
      if (same_family) endpoint.kind = port->kind;
      endpoint.kind_implied = false;
    }
  }
  for (auto& instance : plan.instances) {
    const ComponentInterface* component = component_of(instance.id);
    if (component == nullptr) continue;
    for (auto& property : instance.config_properties) {
      if (property.value.kind != ValueKind::Enum || !property.value.enum_type_id.empty()) continue;
      const AttributeDescription* attribute = component->find_attribute(property.name);
      if (attribute == nullptr || attribute->kind != ValueKind::Enum) continue;
      property.value.enum_type_id = attribute->enum_type_id;
      property.value.enum_members = attribute->enum_members;
    }
  }
}

}  // namespace mwccm::deployment
