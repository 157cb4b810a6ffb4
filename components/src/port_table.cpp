// The port table: CCM operations by port name. Names are looked up in a map
// filled before the component is installed and only read afterwards.
#include <mwccm/errors.hpp>
#include <mwccm/port_table.hpp>

namespace mwccm {

PortTable::PortTable() : component_name_("(not installed)") {}

void PortTable::insert(Port& port) {
  if (!by_name_.emplace(port.name(), &port).second) {
    throw Error("component port '" + port.name() + "' is declared twice");
  }
  port.component_ = &component_name_;
  ports_.push_back(&port);
}

void PortTable::add(ReceptaclePort& port) { insert(port); }
void PortTable::add(SourcePort& port) { insert(port); }

void PortTable::add_facet(const char* name, const char* type_id, CORBA::Object_ptr executor,
                          ProvidedPort::ServantFactory make_servant) {
  provided_.push_back(std::make_shared<ProvidedPort>(name, Components::FACET, type_id, executor,
                                                     nullptr, std::move(make_servant)));
  insert(*provided_.back());
}

void PortTable::add_consumer(const char* name, const char* type_id,
                             std::unique_ptr<LocalConsumerBase> consumer,
                             ProvidedPort::ServantFactory make_servant) {
  provided_.push_back(std::make_shared<ProvidedPort>(name, Components::CONSUMER, type_id,
                                                     CORBA::Object::_nil(), std::move(consumer),
                                                     std::move(make_servant)));
  insert(*provided_.back());
}

Port& PortTable::find(const char* name) const {
  auto it = by_name_.find(std::string_view(name));
  if (it == by_name_.end()) {
    raise<Components::InvalidName>("component '" + component_name_ + "' has no port '" + name +
                                   "'");
  }
  return *it->second;
}

template <class P>
P& PortTable::find_as(const char* name, const char* wanted) const {
  Port& port = find(name);
  auto* typed = dynamic_cast<P*>(&port);
  if (typed == nullptr) {
    raise<Components::InvalidName>(port.describe() + " is not " + wanted);
  }
  return *typed;
}

std::shared_ptr<ProvidedPort> PortTable::provided(const char* name, Components::PortKind kind,
                                                  const char* wanted) const {
  auto& port = find_as<ProvidedPort>(name, wanted);
  if (port.kind() != kind) raise<Components::InvalidName>(port.describe() + " is not " + wanted);
  for (const auto& shared : provided_) {
    if (shared.get() == &port) return shared;
  }
  throw Error(port.describe() + " is not in its table");  // cannot happen: insert() keeps both
}

CORBA::Object_ptr PortTable::provide_facet(const char* name) const {
  return CORBA::Object::_duplicate(provided(name, Components::FACET, "a facet")->reference());
}

Components::EventConsumerBase_ptr PortTable::get_consumer(const char* name) const {
  // The sink's servant implements an EventConsumerBase-derived interface.
  return Components::EventConsumerBase::_unchecked_narrow(
      provided(name, Components::CONSUMER, "an event sink")->reference());
}

Components::Cookie* PortTable::connect_plain(const char* receptacle, const PortTable& provider,
                                             const char* facet) {
  auto& port = find_as<ReceptaclePort>(receptacle, "a receptacle");
  return port.connect_plain(provider.provided(facet, Components::FACET, "a facet"));
}

Components::Cookie* PortTable::subscribe_channel(const char* source, EventChannel& channel,
                                                 const std::string& supplier,
                                                 const PortTable& provider, const char* sink,
                                                 const EventFilter& filter) {
  auto& port = find_as<SourcePort>(source, "an event source");
  return port.subscribe_channel(
      channel, supplier, provider.provided(sink, Components::CONSUMER, "an event sink"), filter);
}

Components::Cookie* PortTable::route_channel(const char* source, EventChannel& channel,
                                             const std::string& supplier,
                                             std::shared_ptr<Gateway> gateway) {
  return find_as<SourcePort>(source, "an event source")
      .route_channel(channel, supplier, std::move(gateway));
}

Components::Cookie* PortTable::subscribe_plain(const char* source, const PortTable& provider,
                                               const char* sink) {
  auto& port = find_as<SourcePort>(source, "an event source");
  return port.subscribe_plain(provider.provided(sink, Components::CONSUMER, "an event sink"));
}

Components::Cookie* PortTable::connect(const char* name, CORBA::Object_ptr ref) {
  return find_as<ReceptaclePort>(name, "a receptacle").connect_object(ref);
}

CORBA::Object_ptr PortTable::disconnect(const char* name, Components::Cookie* ck) {
  return find_as<ReceptaclePort>(name, "a receptacle").disconnect_object(ck);
}

Components::ConnectionDescriptions* PortTable::get_connections(const char* name) const {
  return new Components::ConnectionDescriptions(
      find_as<ReceptaclePort>(name, "a receptacle").describe_connections());
}

Components::Cookie* PortTable::subscribe(const char* name,
                                         Components::EventConsumerBase_ptr consumer) {
  return find_as<SourcePort>(name, "a publisher").subscribe_object(consumer);
}

Components::EventConsumerBase_ptr PortTable::unsubscribe(const char* name, Components::Cookie* ck) {
  return find_as<SourcePort>(name, "a publisher").unsubscribe_object(ck);
}

void PortTable::connect_consumer(const char* name, Components::EventConsumerBase_ptr consumer) {
  find_as<SourcePort>(name, "an emitter").connect_object(consumer);
}

Components::EventConsumerBase_ptr PortTable::disconnect_consumer(const char* name) {
  return find_as<SourcePort>(name, "an emitter").disconnect_object();
}

Components::PortDescriptions* PortTable::get_all_ports() const {
  auto* out = new Components::PortDescriptions;
  out->length(static_cast<CORBA::ULong>(ports_.size()));
  for (CORBA::ULong i = 0; i < out->length(); ++i) {
    const Port& port = *ports_[i];
    (*out)[i].name = port.name().c_str();
    (*out)[i].kind = port.kind();
    (*out)[i].type_id = port.type_id().c_str();
    (*out)[i].connections = port.describe_connections();
  }
  return out;
}

}  // namespace mwccm
