// A compiled plan's tables as a locality plan (static_plan.hpp).
#include <mwccm/deployment/any_value.hpp>
#include <mwccm/deployment/static_plan.hpp>

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

}  // namespace

MwccmDeployment::LocalityPlan locality_plan(CORBA::ORB_ptr orb, const Plan& plan) {
  for (const Home& home : plan.homes) mwccm::HomeRegistry::add(home.entrypoint, home.make);

  MwccmDeployment::LocalityPlan result;
  result.name = plan.locality;
  result.node = plan.node;
  result.settings.priority = plan.priority;
  result.settings.cpu_affinity = plan.cpu_affinity;
  result.settings.orb_threads = plan.orb_threads;
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
      to.attributes[a].name = from.attributes[a].name;
      to.attributes[a].value = to_any(orb, typed_value(from.attributes[a]));
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
  }
  return result;  // nothing is provided to other processes: there are none
}

}  // namespace mwccm::deployment::static_plan
