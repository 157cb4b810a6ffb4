// Assembling a locality's part of a plan in process (locality_assembly.hpp).
#include <unistd.h>

#include <algorithm>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/deployment/locality_assembly.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <set>

namespace mwccm::deployment {
namespace {

std::string end_name(const MwccmDeployment::PortEnd& end) {
  return std::string(end.instance.in()) + "." + end.port.in();
}

mwccm::PortEnd port_end(const MwccmDeployment::PortEnd& end) {
  return {end.instance.in(), end.port.in()};
}

// Where this process's channels receive, from its plan's settings; its DDS
// participant is on the channel's address, in the launch's partition.
mwccm::ReceiverSettings receiver_settings(const MwccmDeployment::LocalityPlan& plan) {
  const MwccmDeployment::ServerSettings& settings = plan.settings;
  mwccm::ReceiverSettings receive;
  if (*settings.channel_address.in() != '\0') receive.address = settings.channel_address.in();
  if (*settings.multicast_group.in() != '\0')
    receive.multicast_group = settings.multicast_group.in();
  if (*settings.multicast_interface.in() != '\0')
    receive.multicast_interface = settings.multicast_interface.in();
  receive.dds.address = receive.address;
  if (settings.dds_domain >= 0) receive.dds.id = static_cast<std::uint32_t>(settings.dds_domain);
  receive.dds.partition = plan.launch.in();
  for (CORBA::ULong i = 0; i < settings.dds_peers.length(); ++i)
    receive.dds.peers.push_back(settings.dds_peers[i].in());
  return receive;
}

mwccm::DdsTopic dds_topic(const MwccmDeployment::DdsTopic& topic) {
  return {topic.name.in(), topic.reliable != 0, topic.history_depth};
}

// The strategy of that name (the plan's check refused any other).
const mwccm::Delivery& delivery_named(const std::string& name) {
  const mwccm::Delivery* delivery = mwccm::find_delivery(name);
  if (delivery == nullptr)
    throw mwccm::Error("no delivery strategy '" + name + "' (this mwccm has " +
                       mwccm::delivery_names() + ")");
  return *delivery;
}

// The strategy whose receivers of this kind feed sinks through channels.
const mwccm::Delivery& receiving_by(const std::string& kind) {
  for (const mwccm::Delivery* delivery : mwccm::deliveries()) {
    const auto transports = delivery->transports();
    if (delivery->links_channels() &&
        std::find(transports.begin(), transports.end(), kind) != transports.end())
      return *delivery;
  }
  throw mwccm::Error("no delivery strategy receives by '" + kind + "'");
}

// The consumer's filter; the plan's check parsed it already.
mwccm::EventFilter filter_of(const char* filter) {
  return *filter == '\0' ? mwccm::EventFilter() : mwccm::EventFilter::parse(filter);
}

}  // namespace

std::string launch_name() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return "mwccm_" + std::to_string(::getpid()) + "_" +
         std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}

LocalityAssembly::LocalityAssembly(CORBA::ORB_ptr orb, mwccm::ComponentServer& server)
    : orb_(CORBA::ORB::_duplicate(orb)), server_(server), assembly_(orb), timer_("") {}

void LocalityAssembly::fail(const char* phase, const std::string& subject) const {
  throw MwccmDeployment::DeploymentFailure(phase, subject.c_str(),
                                           mwccm::current_exception_message().c_str());
}

MwccmDeployment::ProvidedReferences* LocalityAssembly::start_launch(
    const MwccmDeployment::LocalityPlan& plan) {
  plan_ = plan;
  const std::string locality = plan.name.in();
  timer_.set_process(locality);
  StepTimer::Timed timed(timer_);
  launched_ = true;
  std::string subject = locality;
  try {
    assembly_.add_local_server(locality, server_);
    assembly_.create_container(locality, locality);
    for (CORBA::ULong i = 0; i < plan.instances.length(); ++i) {
      const MwccmDeployment::InstancePlan& instance = plan.instances[i];
      subject = instance.name.in();
      const std::string entrypoint = instance.home_entrypoint.in();
      auto home = homes_.find(entrypoint);
      if (home == homes_.end()) {
        home = homes_.emplace(entrypoint, entrypoint).first;
        assembly_.install_home(locality, home->second, entrypoint, instance.library.in());
      }
      assembly_.create_component(home->second, subject);
    }
    for (CORBA::ULong i = 0; i < plan.instances.length(); ++i) {
      const MwccmDeployment::InstancePlan& instance = plan.instances[i];
      subject = instance.name.in();
      if (instance.attributes.length() == 0) continue;
      std::vector<std::pair<std::string, CORBA::Any>> values;
      for (CORBA::ULong a = 0; a < instance.attributes.length(); ++a) {
        values.emplace_back(instance.attributes[a].name.in(), instance.attributes[a].value);
      }
      assembly_.configure(subject, values);
    }
    for (CORBA::ULong i = 0; i < plan.instances.length(); ++i) {
      const MwccmDeployment::InstancePlan& instance = plan.instances[i];
      subject = instance.name.in();
      for (const char* target : {instance.ior_file.in(), instance.naming.in()}) {
        if (*target == '\0') continue;
        const std::string full = target == instance.naming.in() ? "naming:" + std::string(target)
                                                                : "file:" + std::string(target);
        assembly_.register_component(subject, full);
        registrations_.push_back(full);
      }
    }
    std::set<std::string> here;
    for (CORBA::ULong i = 0; i < plan.instances.length(); ++i)
      here.insert(plan.instances[i].name.in());
    for (CORBA::ULong i = 0; i < plan.connections.length(); ++i) {
      const MwccmDeployment::ConnectionPlan& connection = plan.connections[i];
      subject = end_name(connection.user);
      // What a strategy needs early (a DDS writer) before finish_launch, so
      // that every other process's receiver can match it there.
      if (connection.events && !connection.plain_cxx)
        wiring(connection.delivery.in(), connection.gateway.in(), connection.topic)
            .prepare(port_end(connection.user));
      if (here.count(connection.provider.instance.in()) != 0) connect_here(connection);
    }
    // Owned until returned: a step below that throws frees it.
    MwccmDeployment::ProvidedReferences_var provided = new MwccmDeployment::ProvidedReferences;
    provided->length(plan.provided.length() + plan.inbound.length());
    for (CORBA::ULong i = 0; i < plan.provided.length(); ++i) {
      subject = end_name(plan.provided[i]);
      provided[i].end = plan.provided[i];
      const mwccm::PortEnd end = port_end(plan.provided[i]);
      try {
        provided[i].reference = assembly_.provide(end);
      } catch (const Components::InvalidName&) {
        provided[i].reference = assembly_.consumer(end);  // not a facet: an event consumer
      }
    }
    // Sinks fed by other processes' channels: this channel's endpoint for each.
    for (CORBA::ULong i = 0; i < plan.inbound.length(); ++i) {
      const MwccmDeployment::ChannelInbound& inbound = plan.inbound[i];
      subject = end_name(inbound.sink);
      MwccmDeployment::ProvidedReference& entry = provided[plan.provided.length() + i];
      entry.end = inbound.sink;
      const std::string kind = inbound.gateway.in();
      entry.channel = wiring(receiving_by(kind).name(), kind, inbound.topic)
                          .accept(end_name(inbound.supplier), port_end(inbound.sink),
                                  filter_of(inbound.filter.in()))
                          .c_str();
    }
    return provided._retn();
  } catch (const MwccmDeployment::DeploymentFailure&) {
    throw;
  } catch (...) {
    fail("start_launch", subject);
  }
}

// A Local_Interface connection as plain C++ objects (the plan's check made
// sure both ends are in this process); any other through CORBA operations on
// the collocated objects, as a connection across processes is made.
void LocalityAssembly::connect_here(const MwccmDeployment::ConnectionPlan& connection) {
  const mwccm::PortEnd user = port_end(connection.user);
  const mwccm::PortEnd provider = port_end(connection.provider);
  if (connection.events && connection.plain_cxx) {
    assembly_.subscribe_plain(user, provider);
  } else if (connection.events) {
    wiring(connection.delivery.in(), connection.gateway.in(), connection.topic)
        .connect_local(user, provider, filter_of(connection.filter.in()));
  } else if (connection.plain_cxx) {
    assembly_.connect_plain(user, provider);
  } else {
    assembly_.connect(user, provider);
  }
}

void LocalityAssembly::connect_there(const MwccmDeployment::ConnectionPlan& connection,
                                     const MwccmDeployment::ProvidedReferences& references) {
  if (connection.events && delivery_named(connection.delivery.in()).links_channels()) {
    route_through_channel(connection, references);
    return;
  }
  CORBA::Object_var reference;
  if (*connection.external.in() != '\0') {
    reference = mwccm::resolve_reference(orb_.in(), connection.external.in());
  } else {
    for (CORBA::ULong i = 0; i < references.length() && CORBA::is_nil(reference.in()); ++i) {
      if (end_name(references[i].end) == end_name(connection.provider)) {
        reference = CORBA::Object::_duplicate(references[i].reference.in());
      }
    }
    if (CORBA::is_nil(reference.in())) {
      throw mwccm::Error("no process provided " + end_name(connection.provider));
    }
  }
  if (connection.events) {
    Components::EventConsumerBase_var consumer =
        Components::EventConsumerBase::_narrow(reference.in());
    assembly_.subscribe_to(port_end(connection.user), consumer.in(), port_end(connection.provider));
  } else {
    assembly_.connect_to(port_end(connection.user), reference.in(), port_end(connection.provider));
  }
}

// The source's events through a gateway to the sink's process, one gateway
// per endpoint however many connections use it (a multicast group's
// datagrams leave through this process's own interface).
void LocalityAssembly::route_through_channel(
    const MwccmDeployment::ConnectionPlan& connection,
    const MwccmDeployment::ProvidedReferences& references) {
  std::string endpoint_text;
  for (CORBA::ULong i = 0; i < references.length() && endpoint_text.empty(); ++i) {
    if (end_name(references[i].end) == end_name(connection.provider))
      endpoint_text = references[i].channel.in();
  }
  if (endpoint_text.empty())
    throw mwccm::Error("no process published a channel for " + end_name(connection.provider));
  wiring(connection.delivery.in(), connection.gateway.in(), connection.topic)
      .route(port_end(connection.user), endpoint_text, port_end(connection.provider));
}

// The strategy's wiring of this assembly (Assembly::wiring).
mwccm::DeliveryWiring& LocalityAssembly::wiring(const std::string& name, const std::string& gateway,
                                                const MwccmDeployment::DdsTopic& topic) {
  return assembly_.wiring(delivery_named(name),
                          {orb_.in(), gateway, receiver_settings(plan_), dds_topic(topic)});
}

void LocalityAssembly::finish_launch(const MwccmDeployment::ProvidedReferences& references,
                                     bool start_now) {
  StepTimer::Timed timed(timer_);
  std::set<std::string> here;
  for (CORBA::ULong i = 0; i < plan_.instances.length(); ++i)
    here.insert(plan_.instances[i].name.in());
  std::string subject = plan_.name.in();
  try {
    for (CORBA::ULong i = 0; i < plan_.connections.length(); ++i) {
      const MwccmDeployment::ConnectionPlan& connection = plan_.connections[i];
      subject = end_name(connection.user);
      if (here.count(connection.provider.instance.in()) == 0) connect_there(connection, references);
    }
    subject = plan_.name.in();
    // Each strategy waits until it can deliver (a DDS writer and its readers matched).
    assembly_.finish_wiring();
  } catch (...) {
    fail("finish_launch", subject);
  }
  if (start_now) start();
}

void LocalityAssembly::start() {
  StepTimer::Timed timed(timer_);
  try {
    assembly_.activate();
  } catch (...) {
    fail("start", plan_.name.in());
  }
}

MwccmDeployment::ChannelCountersList* LocalityAssembly::channel_counters() const {
  auto* out = new MwccmDeployment::ChannelCountersList;
  mwccm::Container* container = server_.find_local_container(plan_.name.in());
  if (container == nullptr) return out;
  const mwccm::EventChannel& channel = container->channel();
  const mwccm::EventChannel::Counters c = channel.counters();
  out->length(1);
  MwccmDeployment::ChannelCounters& counted = (*out)[0];
  counted.process = plan_.name;
  counted.published = c.published;
  counted.delivered = c.delivered;
  counted.filtered = c.filtered;
  counted.sent = c.sent;
  counted.undeliverable = c.undeliverable;
  counted.received = c.received;
  counted.unreadable = c.unreadable;
  counted.duplicates = c.duplicates;
  counted.out_of_order = c.out_of_order;
  counted.lost = c.lost;
  const std::vector<mwccm::EventChannel::InboundCounters> inbound = channel.inbound();
  counted.suppliers.length(static_cast<CORBA::ULong>(inbound.size()));
  for (CORBA::ULong i = 0; i < counted.suppliers.length(); ++i) {
    counted.suppliers[i] = {inbound[i].supplier.c_str(), inbound[i].received, inbound[i].duplicates,
                            inbound[i].out_of_order, inbound[i].lost};
  }
  return out;
}

void LocalityAssembly::teardown() {
  if (!launched_) return;
  StepTimer::Timed timed(timer_);
  try {
    assembly_.remove();
    for (const auto& target : registrations_) mwccm::unregister_reference(orb_.in(), target);
    registrations_.clear();
    launched_ = false;
  } catch (...) {
    fail("teardown", plan_.name.in());
  }
}

}  // namespace mwccm::deployment
