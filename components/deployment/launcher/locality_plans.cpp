// Splitting a checked plan into locality plans (locality_plans.hpp).
#include <map>
#include <mwccm/delivery.hpp>
#include <mwccm/deployment/any_value.hpp>
#include <mwccm/deployment/detail/connection_settings.hpp>
#include <mwccm/deployment/localities.hpp>
#include <mwccm/deployment/locality_assembly.hpp>
#include <mwccm/deployment/locality_plans.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <set>

namespace mwccm::deployment {
namespace {

template <class Sequence, class Item>
void append(Sequence& sequence, Item&& item) {
  const CORBA::ULong length = sequence.length();
  sequence.length(length + 1);
  sequence[length] = std::forward<Item>(item);
}

MwccmDeployment::PortEnd port_end(const std::string& instance, const std::string& port) {
  MwccmDeployment::PortEnd end;
  end.instance = instance.c_str();  // a const char* is copied
  end.port = port.c_str();
  return end;
}

bool is_user(PortKind kind) { return kind != PortKind::Facet && kind != PortKind::EventConsumer; }

MwccmDeployment::ServerSettings settings_of(const Instance* server) {
  MwccmDeployment::ServerSettings settings;
  settings.priority = 0;
  settings.cpu_affinity = "";
  settings.orb_threads = 0;
  settings.channel_address = "";
  settings.multicast_group = "";
  settings.multicast_interface = "";
  settings.dds_domain = -1;
  if (server == nullptr) return settings;
  for (const auto& property : server->config_properties) {
    if (property.name == properties::kPriority) settings.priority = std::stol(property.value.text);
    if (property.name == properties::kCpuAffinity)
      settings.cpu_affinity = property.value.text.c_str();
    if (property.name == properties::kOrbThreads)
      settings.orb_threads = std::stoul(property.value.text);
    if (property.name == properties::kChannelAddress)
      settings.channel_address = property.value.text.c_str();
    if (property.name == properties::kMulticastGroup)
      settings.multicast_group = property.value.text.c_str();
    if (property.name == properties::kMulticastInterface)
      settings.multicast_interface = property.value.text.c_str();
    if (property.name == properties::kDdsDomain)
      settings.dds_domain = std::stol(property.value.text);
  }
  return settings;
}

MwccmDeployment::InstancePlan instance_plan(CORBA::ORB_ptr orb, const PlanIndex& plan,
                                            const Instance& instance) {
  MwccmDeployment::InstancePlan result;
  result.name = instance.name.c_str();
  const Implementation& implementation = *plan.implementation(instance.implementation_id);
  result.home_entrypoint =
      find_property(implementation.exec_parameters, properties::kHomeEntrypoint)
          ->value.text.c_str();
  result.artifact = plan.artifact(implementation.artifact_ids.front())->location.c_str();
  result.library = "";
  result.ior_file = "";
  result.naming = "";
  for (const auto& property : instance.config_properties) {
    if (property.name == properties::kInstanceIOR) {
      result.ior_file = property.value.text.c_str();
    } else if (property.name == properties::kRegisterNaming) {
      result.naming = property.value.text.c_str();
    } else if (properties::sets_an_attribute(property.name)) {
      Components::ConfigValue value;
      value.name = property.name.c_str();
      value.value = to_any(orb, property.value);
      append(result.attributes, value);
    }
  }
  return result;
}

MwccmDeployment::DdsTopic dds_topic(const ConnectionSettings& settings) {
  MwccmDeployment::DdsTopic topic;
  topic.name = settings.topic.c_str();
  topic.reliable = settings.reliability == properties::kReliable;
  topic.history_depth = settings.history_depth.empty()
                            ? 0
                            : static_cast<CORBA::ULong>(std::stoul(settings.history_depth));
  return topic;
}

}  // namespace

std::vector<MwccmDeployment::LocalityPlan> make_locality_plans(CORBA::ORB_ptr orb,
                                                               const Plan& plan) {
  const PlanIndex index(plan);
  const std::vector<Locality> localities = split_by_locality(plan);
  std::map<std::string, std::size_t> locality_of;  // instance id → index
  for (std::size_t i = 0; i < localities.size(); ++i) {
    for (const Instance* instance : localities[i].components) locality_of[instance->id] = i;
  }
  std::vector<MwccmDeployment::LocalityPlan> result(localities.size());
  std::vector<std::set<std::pair<std::string, std::string>>> provided(localities.size());
  const std::string launch = launch_name();
  for (std::size_t i = 0; i < localities.size(); ++i) {
    MwccmDeployment::LocalityPlan& locality = result[i];
    locality.name = localities[i].name.c_str();
    locality.node = localities[i].node.c_str();
    locality.settings = settings_of(localities[i].server);
    locality.launch = launch.c_str();
    for (const Instance* instance : localities[i].components) {
      append(locality.instances, instance_plan(orb, index, *instance));
    }
  }
  // Each participant discovers the others at their localities' channel
  // addresses, by unicast: a plan across hosts gives each locality its own.
  std::set<std::string> addresses;
  for (const auto& locality : result) {
    const std::string address = locality.settings.channel_address.in();
    if (!address.empty()) addresses.insert(address);
  }
  for (auto& locality : result) {
    const std::string own = locality.settings.channel_address.in();
    for (const auto& address : addresses) {
      if (address == own) continue;
      const CORBA::ULong n = locality.settings.dds_peers.length();
      locality.settings.dds_peers.length(n + 1);
      locality.settings.dds_peers[n] = address.c_str();
    }
  }
  for (const Connection& connection : plan.connections) {
    const Endpoint* user = nullptr;
    const Endpoint* provider = nullptr;
    for (const auto& endpoint : connection.internal_endpoints)
      (is_user(endpoint.kind) ? user : provider) = &endpoint;
    MwccmDeployment::ConnectionPlan wired;
    wired.name = connection.name.c_str();
    wired.user = port_end(index.instance(user->instance_id)->name, user->port_name);
    wired.events = user->kind == PortKind::EventEmitter || user->kind == PortKind::EventPublisher;
    const ConnectionSettings settings = connection_settings(index, connection);
    wired.plain_cxx = settings.plain_cxx;
    wired.delivery = settings.delivery.c_str();
    wired.gateway = settings.gateway.c_str();
    wired.filter = settings.filter.c_str();
    wired.topic = dds_topic(settings);
    const std::size_t here = locality_of.at(user->instance_id);
    if (provider == nullptr) {
      wired.provider = port_end("", connection.external_references.front().port_name);
      wired.external = connection.external_references.front().location.c_str();
    } else {
      const std::string provider_name = index.instance(provider->instance_id)->name;
      wired.provider = port_end(provider_name, provider->port_name);
      wired.external = "";
      const std::size_t there = locality_of.at(provider->instance_id);
      // A strategy that links channels (mwccm/delivery.hpp): the sink's
      // process receives by the connection's gateway, or by the strategy's
      // one transport (dds, zmq).
      const mwccm::Delivery* delivery = mwccm::find_delivery(settings.delivery);
      if (there != here && delivery != nullptr && delivery->links_channels()) {
        const auto transports = delivery->transports();
        // The sink's channel is fed by this one; it publishes its endpoint.
        MwccmDeployment::ChannelInbound inbound;
        inbound.supplier = wired.user;
        inbound.sink = wired.provider;
        inbound.gateway = transports.size() == 1 ? transports.front().c_str() : wired.gateway.in();
        inbound.filter = wired.filter;
        inbound.topic = wired.topic;
        append(result[there].inbound, inbound);
      } else if (there != here &&
                 provided[there].emplace(provider_name, provider->port_name).second) {
        append(result[there].provided, wired.provider);
      }
    }
    append(result[here].connections, wired);
  }
  return result;
}

}  // namespace mwccm::deployment
