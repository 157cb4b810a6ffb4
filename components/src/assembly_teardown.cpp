// Assembly's teardown, in D&C's order (assembly.hpp): what a deployment
// undoes, and the servers it shuts down.
#include <iterator>
#include <mwccm/assembly.hpp>
#include <mwccm/container.hpp>
#include <mwccm/delivery.hpp>
#include <mwccm/step_observer.hpp>

#include "assembly_steps.hpp"

namespace mwccm {

using detail::describe;
using detail::quoted;
using detail::run_step;

void Assembly::remove() {
  // Events from other processes first: none reaches a component being
  // passivated, and once remove_inbound returns none is still being delivered.
  while (!inbound_.empty()) {
    const Inbound& last = inbound_.back();
    local_container(last.component).channel().remove_inbound(last.supplier, last.route);
    inbound_.pop_back();
  }
  for (auto name = creation_order_.rbegin(); name != creation_order_.rend(); ++name) {
    Installed& installed = components_.at(*name);
    if (!installed.active) continue;
    const auto& container = find(containers_, installed.container, "container");
    ObservedStep observed(Step::Passivation, *name);
    run_step("passivate component " + quoted(*name),
             [&] { container->passivate_component(installed.ref.in()); });
    installed.active = false;
  }
  while (!connections_.empty()) {
    const Connection& last = connections_.back();
    const auto& user = find(components_, last.user.component, "component");
    ObservedStep observed(Step::Disconnection, last.user.component + "." + last.user.port);
    if (last.subscription && last.cookie.in() == nullptr) {  // an emitter's one consumer
      run_step("disconnect " + describe("sink", last.provider) + " from " +
                   describe("emitter", last.user),
               [&] {
                 Components::EventConsumerBase_var former =
                     user.ref->disconnect_consumer(last.user.port.c_str());
               });
    } else if (last.subscription) {
      run_step("unsubscribe " + describe("sink", last.provider) + " from " +
                   describe("publisher", last.user),
               [&] {
                 Components::EventConsumerBase_var former =
                     user.ref->unsubscribe(last.user.port.c_str(), last.cookie.in());
               });
    } else {
      run_step("disconnect " + describe("receptacle", last.user) + " from " +
                   describe("facet", last.provider),
               [&] {
                 CORBA::Object_var former =
                     user.ref->disconnect(last.user.port.c_str(), last.cookie.in());
               });
    }
    connections_.pop_back();
  }
  while (!creation_order_.empty()) {
    const std::string name = creation_order_.back();
    ObservedStep observed(Step::Removal, name);
    run_step("remove component " + quoted(name), [&] { components_.at(name).ref->remove(); });
    components_.erase(name);
    creation_order_.pop_back();
  }
  homes_.clear();  // removed with their containers
  home_containers_.clear();
  while (!containers_.empty()) {
    auto last = std::prev(containers_.end());
    const auto& server = find(servers_, container_servers_.at(last->first), "server");
    ObservedStep observed(Step::Removal, last->first);
    run_step("remove container " + quoted(last->first),
             [&] { server->remove_container(last->second.in()); });
    container_servers_.erase(last->first);
    containers_.erase(last);
  }
  wirings_.clear();  // the routes are gone: gateways and writers go (a DDS participant too)
}

void Assembly::shutdown_servers() {
  for (const auto& [name, ref] : servers_) ref->shutdown();
  servers_.clear();
  local_servers_.clear();
}

}  // namespace mwccm
