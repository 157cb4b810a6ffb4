// The port table of one component: every CCM navigation, connection and event
// operation by port name, so that a deployment engine needs no generated
// code. The glue fills it in its constructor (add_*), before the component is
// installed; after that it only reads the name map, so lookups take no lock.
#pragma once

#include <map>
#include <memory>
#include <mwccm/port.hpp>
#include <string>
#include <vector>

namespace mwccm {

class PortTable {
 public:
  PortTable();
  PortTable(const PortTable&) = delete;
  PortTable& operator=(const PortTable&) = delete;

  // Registration (glue constructor). Names must be unique; the table keeps
  // pointers to receptacles and sources, which the glue servant owns, and
  // holds facets and sinks (ProvidedPort: the executor side now, the servant
  // made by `make_servant` when a reference is first needed).
  void add(ReceptaclePort& port);
  void add(SourcePort& port);
  void add_facet(const char* name, const char* type_id, CORBA::Object_ptr executor,
                 ProvidedPort::ServantFactory make_servant);
  void add_consumer(const char* name, const char* type_id,
                    std::unique_ptr<LocalConsumerBase> consumer,
                    ProvidedPort::ServantFactory make_servant);

  // The component's name in messages (its key; set by the container).
  void set_component_name(std::string name) { component_name_ = std::move(name); }
  const std::string& component_name() const noexcept { return component_name_; }

  // The CCM operations by name. Unknown names, and names of another kind of
  // port, raise InvalidName naming the component.
  CORBA::Object_ptr provide_facet(const char* name) const;
  Components::EventConsumerBase_ptr get_consumer(const char* name) const;
  Components::Cookie* connect(const char* name, CORBA::Object_ptr ref);
  CORBA::Object_ptr disconnect(const char* name, Components::Cookie* ck);
  Components::ConnectionDescriptions* get_connections(const char* name) const;
  Components::Cookie* subscribe(const char* name, Components::EventConsumerBase_ptr consumer);
  Components::EventConsumerBase_ptr unsubscribe(const char* name, Components::Cookie* ck);
  void connect_consumer(const char* name, Components::EventConsumerBase_ptr consumer);
  Components::EventConsumerBase_ptr disconnect_consumer(const char* name);
  Components::PortDescriptions* get_all_ports() const;

  // Plain C++ connections, both components in this process: `user`'s
  // receptacle to `provider`'s facet, `user`'s source to `provider`'s sink
  // (a cookie, or null for a simplex receptacle or an emitter); undone by
  // disconnect, unsubscribe or disconnect_consumer as any other.
  Components::Cookie* connect_plain(const char* receptacle, const PortTable& provider,
                                    const char* facet);
  Components::Cookie* subscribe_plain(const char* source, const PortTable& provider,
                                      const char* sink);
  // Through `channel` (docs/events.md), which knows the source as `supplier`.
  Components::Cookie* subscribe_channel(const char* source, EventChannel& channel,
                                        const std::string& supplier, const PortTable& provider,
                                        const char* sink, const EventFilter& filter);
  // The source's events to other containers, through `gateway`.
  Components::Cookie* route_channel(const char* source, EventChannel& channel,
                                    const std::string& supplier, std::shared_ptr<Gateway> gateway);
  // The sink of this table, as a channel's consumer (ports/filters checked by the channel's users).
  std::shared_ptr<ProvidedPort> sink(const char* name) const {
    return provided(name, Components::CONSUMER, "an event sink");
  }

  // Facets and sinks, for the container to install and uninstall.
  const std::vector<std::shared_ptr<ProvidedPort>>& provided() const noexcept { return provided_; }

 private:
  void insert(Port& port);
  Port& find(const char* name) const;
  template <class P>
  P& find_as(const char* name, const char* wanted) const;

  std::string component_name_;
  std::vector<Port*> ports_;  // in registration order, for get_all_ports
  std::map<std::string, Port*, std::less<>> by_name_;
  std::shared_ptr<ProvidedPort> provided(const char* name, Components::PortKind kind,
                                         const char* wanted) const;

  std::vector<std::shared_ptr<ProvidedPort>> provided_;
};

}  // namespace mwccm
