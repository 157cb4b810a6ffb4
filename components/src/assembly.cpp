// Assembly: each step is one or two CORBA operations of Components.idl; what
// this file adds is the bookkeeping of names and the wording of refusals
// (the step before the server's own message), so that an error from another
// process still says which two ports were being connected.
#include <iterator>
#include <mwccm/assembly.hpp>
#include <mwccm/component_servant.hpp>
#include <mwccm/container.hpp>
#include <mwccm/cookie.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/registration.hpp>
#include <mwccm/step_observer.hpp>

#include "assembly_steps.hpp"

namespace mwccm {

using detail::describe;
using detail::quoted;
using detail::run_step;

Assembly::Assembly(CORBA::ORB_ptr orb) : orb_(CORBA::ORB::_duplicate(orb)) {
  register_value_factories(orb);  // subscribe and connect_<multiple> return cookies
}

Assembly::~Assembly() = default;

DeliveryWiring& Assembly::wiring(const Delivery& strategy, const WiringSettings& settings) {
  const std::vector<std::string> transports = strategy.transports();
  WiringSettings wired_by = settings;
  if (transports.size() == 1) wired_by.transport = transports.front();
  auto& wired = wirings_[std::string(strategy.name()) + "\n" + wired_by.transport + "\n" +
                         wired_by.topic.name];
  if (!wired) wired = strategy.wire(*this, wired_by);
  return *wired;
}

void Assembly::finish_wiring() {
  for (const auto& [key, wired] : wirings_) wired->finish();
}

// Every connection's step: timed and observed under the user's port, a
// refusal worded with `step`, the cookie kept for remove().
template <class Connect>
void Assembly::record(const PortEnd& user, const PortEnd& provider, bool subscription,
                      const std::string& step, Connect&& connect) {
  ObservedStep observed(Step::Connection, user.component + "." + user.port);
  Components::Cookie_var cookie = run_step(step, connect);
  connections_.push_back(Connection{user, provider, subscription, cookie});
}

void Assembly::add_server(const std::string& server,
                          Components::Deployment::ComponentServer_ptr ref) {
  if (servers_.count(server) != 0) {
    raise<Components::InvalidName>("the assembly already has a server " + quoted(server));
  }
  servers_[server] = Components::Deployment::ComponentServer::_duplicate(ref);
}

void Assembly::add_local_server(const std::string& server, ComponentServer& local) {
  add_server(server, local.activate());
  local_servers_[server] = &local;
}

void Assembly::add_server(const std::string& server, const std::string& target) {
  Components::Deployment::ComponentServer_var ref =
      resolve<Components::Deployment::ComponentServer>(orb_.in(), target);
  add_server(server, ref.in());
}

void Assembly::create_container(const std::string& server, const std::string& container) {
  const auto& where = find(servers_, server, "server");
  if (containers_.count(container) != 0) {
    raise<Components::InvalidName>("the assembly already has a container " + quoted(container));
  }
  Components::ConfigValues config;
  config.length(1);
  config[0].name = "name";
  config[0].value <<= container.c_str();
  ObservedStep observed(Step::ContainerCreation, container);
  containers_[container] =
      run_step("create container " + quoted(container) + " on server " + quoted(server),
               [&] { return where->create_container(config); });
  container_servers_[container] = server;
}

void Assembly::install_home(const std::string& container, const std::string& home,
                            const std::string& entrypoint, const std::string& library) {
  const auto& where = find(containers_, container, "container");
  if (homes_.count(home) != 0) {
    raise<Components::InvalidName>("the assembly already has a home " + quoted(home));
  }
  Components::ConfigValues config;
  if (!library.empty()) {
    config.length(1);
    config[0].name = "library";
    config[0].value <<= library.c_str();
  }
  ObservedStep observed(Step::HomeCreation, home);
  const std::string step =
      "install home " + quoted(home) + " (" + entrypoint + ") in container " + quoted(container);
  Components::CCMHome_var installed =
      run_step(step, [&] { return where->install_home(home.c_str(), entrypoint.c_str(), config); });
  Components::KeylessCCMHome_var keyless = Components::KeylessCCMHome::_narrow(installed.in());
  if (CORBA::is_nil(keyless.in())) {
    raise<Components::Deployment::InstallationFailure>(step + ": not a KeylessCCMHome");
  }
  homes_[home] = keyless;
  home_containers_[home] = container;
}

void Assembly::create_component(const std::string& home, const std::string& component) {
  const auto& factory = find(homes_, home, "home");
  if (components_.count(component) != 0) {
    raise<Components::InvalidName>("the assembly already has a component " + quoted(component));
  }
  ObservedStep observed(Step::ComponentCreation, component);
  Installed installed;
  installed.ref = run_step("create component " + quoted(component) + " of home " + quoted(home),
                           [&] { return factory->create_component(); });
  installed.container = home_containers_.at(home);
  components_.emplace(component, std::move(installed));
  creation_order_.push_back(component);
}

void Assembly::configure(const std::string& component,
                         const std::vector<std::pair<std::string, CORBA::Any>>& values) {
  const auto& target = find(components_, component, "component");
  Components::ConfigValues config;
  config.length(static_cast<CORBA::ULong>(values.size()));
  for (CORBA::ULong i = 0; i < config.length(); ++i) {
    config[i].name = values[i].first.c_str();
    config[i].value = values[i].second;
  }
  ObservedStep observed(Step::Configuration, component);
  run_step("configure component " + quoted(component),
           [&] { target.ref->set_configuration(config); });
}

void Assembly::connect(const PortEnd& receptacle, const PortEnd& facet) {
  const auto& user = find(components_, receptacle.component, "component");
  const auto& provider = find(components_, facet.component, "component");
  record(receptacle, facet, false,
         "connect " + describe("receptacle", receptacle) + " to " + describe("facet", facet), [&] {
           CORBA::Object_var ref = provider.ref->provide_facet(facet.port.c_str());
           return user.ref->connect(receptacle.port.c_str(), ref.in());
         });
}

void Assembly::subscribe(const PortEnd& publisher, const PortEnd& sink) {
  const auto& source = find(components_, publisher.component, "component");
  const auto& consumer = find(components_, sink.component, "component");
  record(publisher, sink, true,
         "subscribe " + describe("sink", sink) + " to " + describe("publisher", publisher), [&] {
           Components::EventConsumerBase_var ref = consumer.ref->get_consumer(sink.port.c_str());
           return source.ref->subscribe(publisher.port.c_str(), ref.in());
         });
}

Container& Assembly::local_container(const std::string& component) const {
  const Installed& installed = find(components_, component, "component");
  const std::string& server = container_servers_.at(installed.container);
  const auto local = local_servers_.find(server);
  Container* container = local == local_servers_.end()
                             ? nullptr
                             : local->second->find_local_container(installed.container);
  if (container == nullptr) {
    raise<Components::InvalidName>("component " + quoted(component) + " is not in this " +
                                   "process: only components here connect as plain C++ or "
                                   "through its channel");
  }
  return *container;
}

ComponentServant& Assembly::local_servant(const std::string& component) const {
  const Installed& installed = find(components_, component, "component");
  ComponentServant* servant = local_container(component).servant_of(installed.ref.in());
  if (servant == nullptr) {
    raise<Components::InvalidName>("component " + quoted(component) + " is not in its " +
                                   "container any more");
  }
  return *servant;
}

void Assembly::subscribe_channel(const PortEnd& source, const PortEnd& sink,
                                 const EventFilter& filter) {
  record(source, sink, true,
         "subscribe " + describe("sink", sink) + " to " + describe("source", source) +
             " through its container's channel",
         [&]() -> Components::Cookie* {
           return local_servant(source.component)
               .ports()
               .subscribe_channel(source.port.c_str(), local_container(source.component).channel(),
                                  source.component + "." + source.port,
                                  local_servant(sink.component).ports(), sink.port.c_str(), filter);
         });
}

void Assembly::connect_plain(const PortEnd& receptacle, const PortEnd& facet) {
  record(receptacle, facet, false,
         "connect " + describe("receptacle", receptacle) + " to " + describe("facet", facet) +
             " as plain C++",
         [&]() -> Components::Cookie* {
           return local_servant(receptacle.component)
               .ports()
               .connect_plain(receptacle.port.c_str(), local_servant(facet.component).ports(),
                              facet.port.c_str());
         });
}

void Assembly::subscribe_plain(const PortEnd& source, const PortEnd& sink) {
  record(
      source, sink, true,
      "subscribe " + describe("sink", sink) + " to " + describe("source", source) + " as plain C++",
      [&]() -> Components::Cookie* {
        return local_servant(source.component)
            .ports()
            .subscribe_plain(source.port.c_str(), local_servant(sink.component).ports(),
                             sink.port.c_str());
      });
}

std::string Assembly::accept_channel(const std::string& supplier, const PortEnd& sink,
                                     const EventFilter& filter, const std::string& gateway,
                                     const ReceiverSettings& settings, const DdsTopic& topic) {
  ObservedStep observed(Step::Connection, sink.component + "." + sink.port);
  const std::string step =
      "feed " + describe("sink", sink) + " with '" + supplier + "' through its container's channel";
  return run_step(step, [&] {
    Container& container = local_container(sink.component);
    std::shared_ptr<ProvidedPort> port =
        local_servant(sink.component).ports().sink(sink.port.c_str());
    const std::uint64_t route = next_cookie_id();
    container.channel().accept(supplier, event_type_of(port->type_id()), route, port, filter);
    inbound_.push_back({sink.component, supplier, route});
    return container.receivers().endpoint(gateway, settings, topic);
  });
}

void Assembly::route_channel(const PortEnd& source, std::shared_ptr<Gateway> gateway,
                             const PortEnd& provider) {
  const std::string step = "send " + describe("source", source) + " to " +
                           describe("sink", provider) + " through " + gateway->describe();
  record(source, provider, true, step, [&]() -> Components::Cookie* {
    return local_servant(source.component)
        .ports()
        .route_channel(source.port.c_str(), local_container(source.component).channel(),
                       source.component + "." + source.port, std::move(gateway));
  });
}

CORBA::Object_ptr Assembly::provide(const PortEnd& facet) {
  const auto& provider = find(components_, facet.component, "component");
  return run_step("provide " + describe("facet", facet),
                  [&] { return provider.ref->provide_facet(facet.port.c_str()); });
}

Components::EventConsumerBase_ptr Assembly::consumer(const PortEnd& sink) {
  const auto& provider = find(components_, sink.component, "component");
  return run_step("get the consumer of " + describe("sink", sink),
                  [&] { return provider.ref->get_consumer(sink.port.c_str()); });
}

void Assembly::connect_to(const PortEnd& receptacle, CORBA::Object_ptr facet,
                          const PortEnd& provider) {
  const auto& user = find(components_, receptacle.component, "component");
  record(receptacle, provider, false,
         "connect " + describe("receptacle", receptacle) + " to " + describe("facet", provider),
         [&] { return user.ref->connect(receptacle.port.c_str(), facet); });
}

void Assembly::subscribe_to(const PortEnd& publisher, Components::EventConsumerBase_ptr sink,
                            const PortEnd& provider) {
  const auto& source = find(components_, publisher.component, "component");
  record(publisher, provider, true,
         "subscribe " + describe("sink", provider) + " to " + describe("publisher", publisher),
         [&] { return source.ref->subscribe(publisher.port.c_str(), sink); });
}

void Assembly::activate() {
  for (const std::string& name : creation_order_) {
    Installed& installed = components_.at(name);
    if (installed.configured) continue;
    ObservedStep observed(Step::Activation, name);
    run_step("complete the configuration of component " + quoted(name),
             [&] { installed.ref->configuration_complete(); });
    installed.configured = true;
  }
  for (const std::string& name : creation_order_) {
    Installed& installed = components_.at(name);
    if (installed.active) continue;
    const auto& container = find(containers_, installed.container, "container");
    ObservedStep observed(Step::Activation, name);
    run_step("activate component " + quoted(name),
             [&] { container->activate_component(installed.ref.in()); });
    installed.active = true;
  }
}

void Assembly::register_component(const std::string& component, const std::string& target) {
  const auto& installed = find(components_, component, "component");
  const auto& container = find(containers_, installed.container, "container");
  ObservedStep observed(Step::Registration, component);
  run_step("register component " + quoted(component) + " at " + quoted(target), [&] {
    container->register_component(installed.ref.in(), component.c_str(), target.c_str());
  });
}

Components::CCMObject_ptr Assembly::component(const std::string& name) const {
  return find(components_, name, "component").ref.in();
}

Components::Deployment::ComponentServer_ptr Assembly::server(const std::string& name) const {
  return find(servers_, name, "server").in();
}

}  // namespace mwccm
