// A compiled plan's tables as a locality plan (static_plan.hpp).
#include <mwccm/deployment/detail/any_value.hpp>
#include <mwccm/deployment/locality_assembly.hpp>
#include <mwccm/deployment/static_plan.hpp>
#include <stdexcept>

namespace mwccm::deployment::static_plan {
namespace {

MwccmDeployment::PortEnd port_end(const char* instance, const char* port) {
  MwccmDeployment::PortEnd end;
  end.instance = instance;  // a const char* is copied
  end.port = port;
  return end;
}

TypedValue typed_value(const Value& value) {
  TypedValue typed;
  typed.kind = value.kind;
  typed.text = value.text;
  typed.enum_type_id = value.enum_type_id;
  typed.enum_members.assign(value.enum_members.begin(), value.enum_members.end());
  return typed;
}

// The override of `value` of `instance`, if any; throws for an override
// that names nothing the tables set.
const AttributeOverride* override_of(const std::vector<AttributeOverride>& overrides,
                                     const Instance& instance, const Value& value) {
  for (const auto& override_ : overrides) {
    if (override_.instance == instance.name && override_.attribute == value.name) return &override_;
  }
  return nullptr;
}

}  // namespace

void check_overrides(const Plan& plan, const std::vector<AttributeOverride>& overrides) {
  for (const auto& override_ : overrides) {
    const Value* found = nullptr;
    for (const Instance& instance : plan.instances) {
      for (const Value& value : instance.attributes) {
        if (override_.instance == instance.name && override_.attribute == value.name)
          found = &value;
      }
    }
    if (found == nullptr) {
      throw std::invalid_argument("--set " + override_.instance + "." + override_.attribute +
                                  ": the plan sets no such attribute (only what it sets can be "
                                  "overridden)");
    }
    overriding_value(override_, typed_value(*found));  // throws for a value of another kind
  }
}

MwccmDeployment::LocalityPlan locality_plan(CORBA::ORB_ptr orb, const Plan& plan,
                                            const std::vector<AttributeOverride>& overrides) {
  check_overrides(plan, overrides);
  for (const Home& home : plan.homes) mwccm::HomeRegistry::add(home.entrypoint, home.make);

  MwccmDeployment::LocalityPlan result;
  result.name = plan.locality;
  result.node = plan.node;
  result.settings.priority = plan.priority;
  result.settings.cpu_affinity = plan.cpu_affinity;
  result.settings.orb_threads = plan.orb_threads;
  result.settings.dds_domain = -1;  // the default: a compiled plan is one process
  result.launch = launch_name().c_str();
  result.instances.length(static_cast<CORBA::ULong>(plan.instances.size()));
  for (CORBA::ULong i = 0; i < result.instances.length(); ++i) {
    const Instance& from = plan.instances[i];
    MwccmDeployment::InstancePlan& to = result.instances[i];
    to.name = from.name;
    to.home_entrypoint = plan.homes[from.home].entrypoint;
    to.artifact = "";
    to.library = "";  // linked in: found in the HomeRegistry
    to.ior_file = from.ior_file;
    to.naming = from.naming;
    to.attributes.length(static_cast<CORBA::ULong>(from.attributes.size()));
    for (CORBA::ULong a = 0; a < to.attributes.length(); ++a) {
      const TypedValue value = typed_value(from.attributes[a]);
      const AttributeOverride* override_ = override_of(overrides, from, from.attributes[a]);
      to.attributes[a].name = from.attributes[a].name;
      to.attributes[a].value =
          to_any(orb, override_ == nullptr ? value : overriding_value(*override_, value));
    }
  }
  result.connections.length(static_cast<CORBA::ULong>(plan.connections.size()));
  for (CORBA::ULong i = 0; i < result.connections.length(); ++i) {
    const Connection& from = plan.connections[i];
    MwccmDeployment::ConnectionPlan& to = result.connections[i];
    to.name = from.name;
    to.user = port_end(from.user_instance, from.user_port);
    to.provider = port_end(from.provider_instance, from.provider_port);
    to.events = from.events;
    to.plain_cxx = from.plain_cxx;
    to.external = from.external;
    to.delivery = from.delivery;
    to.gateway = from.gateway;
    to.filter = from.filter;
    to.topic.name = from.topic;
    to.topic.reliable = from.reliable;
    to.topic.history_depth = from.history_depth;
  }
  return result;  // nothing is provided to other processes: there are none
}

}  // namespace mwccm::deployment::static_plan
