// The port base classes the port table works with by name. Typed ports
// (receptacles.hpp, event_source.hpp) derive from ReceptaclePort and
// SourcePort; facets and sinks are ProvidedPorts the table holds.
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <mwccm/local_consumer.hpp>
#include <string>

namespace mwccm {

class Port {
 public:
  Port(std::string name, Components::PortKind kind, std::string type_id);
  virtual ~Port();
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  const std::string& name() const noexcept { return name_; }
  Components::PortKind kind() const noexcept { return kind_; }
  const std::string& type_id() const noexcept { return type_id_; }  // the port's repository id
  const std::string& component() const noexcept { return *component_; }

  // The port's current connections (cookies are null where CCM has none).
  virtual Components::ConnectionDescriptions describe_connections() const = 0;

  // "receptacle 'peer' of component 'sender'", for messages.
  std::string describe() const;

 protected:
  // Refuses (InvalidConnection) a nil reference or one whose _is_a(type_id)
  // is false. Called once per connect, never per call; for a remote reference
  // it is one round trip.
  void check_type(CORBA::Object_ptr ref, const char* operation) const;

 private:
  friend class PortTable;
  std::string name_;
  Components::PortKind kind_;
  std::string type_id_;
  const std::string* component_;
};

class ProvidedPort;
class EventChannel;
class EventFilter;
class Gateway;

// Simplex and multiplex receptacles, connected by name with an untyped
// reference, or as plain C++ objects to a facet's executor.
class ReceptaclePort : public Port {
 public:
  using Port::Port;
  // Returns a cookie for a multiplex receptacle, a null cookie for a simplex one.
  virtual Components::Cookie* connect_object(CORBA::Object_ptr ref) = 0;
  // The facet's executor, called directly (InvalidConnection if its
  // executor interface is not this receptacle's); a cookie as connect_object.
  virtual Components::Cookie* connect_plain(std::shared_ptr<ProvidedPort> facet) = 0;
  // Returns the former connection (the caller releases it); nil for a plain one.
  virtual CORBA::Object_ptr disconnect_object(Components::Cookie* ck) = 0;
};

// Publishers (subscribe/unsubscribe) and emitters (connect/disconnect_consumer).
class SourcePort : public Port {
 public:
  using Port::Port;
  virtual Components::Cookie* subscribe_object(Components::EventConsumerBase_ptr consumer) = 0;
  virtual Components::EventConsumerBase_ptr unsubscribe_object(Components::Cookie* ck) = 0;
  virtual void connect_object(Components::EventConsumerBase_ptr consumer) = 0;
  virtual Components::EventConsumerBase_ptr disconnect_object() = 0;
  // A sink in this process, pushed to by a plain C++ call (InvalidConnection
  // if it takes another event): a cookie for a publisher, null for an emitter.
  virtual Components::Cookie* subscribe_plain(std::shared_ptr<ProvidedPort> sink) = 0;
  // A sink in this process reached through `channel` (its container's event
  // channel, docs/events.md), which knows this source as `supplier`
  // ("instance.port"): the channel calls the sink, filtered, with the event
  // pushed. A cookie for a publisher, null for an emitter; unsubscribe or
  // disconnect undoes it. InvalidConnection if the sink takes another event.
  virtual Components::Cookie* subscribe_channel(EventChannel& channel, const std::string& supplier,
                                                std::shared_ptr<ProvidedPort> sink,
                                                const EventFilter& filter) = 0;
  // Another container's sinks, fed by `channel` through `gateway`: a cookie,
  // which unsubscribe undoes (an emitter's: disconnect).
  virtual Components::Cookie* route_channel(EventChannel& channel, const std::string& supplier,
                                            std::shared_ptr<Gateway> gateway) = 0;
};

// A facet or an event sink. Its executor side exists from the start: a
// facet's executor, a sink's LocalConsumer (what plain C++ connections
// call). Its CORBA side, a glue servant in the container's POA under
// "<component key>#<port name>", is made when its reference is first asked
// for (provide_facet, get_consumer, navigation, a CORBA connection): a port
// that is only ever connected as plain C++ has no servant, no POA entry and
// no reference. Shared by the port table and the plain connections to it.
class ProvidedPort final : public Port {
 public:
  using ServantFactory = std::function<PortableServer::ServantBase*()>;

  // `executor`: a facet's executor (a local object), nil for a sink;
  // `consumer`: a sink's plain C++ consumer, null for a facet;
  // `make_servant`: the glue servant, made on demand (one reference count
  // that the port adopts).
  ProvidedPort(std::string name, Components::PortKind kind, std::string type_id,
               CORBA::Object_ptr executor, std::unique_ptr<LocalConsumerBase> consumer,
               ServantFactory make_servant);
  ~ProvidedPort() override;

  CORBA::Object_ptr executor() const noexcept { return executor_.in(); }  // borrowed
  LocalConsumerBase* local_consumer() const noexcept { return consumer_.get(); }

  // The container's POA and the object id the servant is activated under,
  // when one is needed (the component's installation).
  void install(PortableServer::POA_ptr poa, std::string object_id);
  // Deactivates the servant if it was made (the component's removal); then
  // reference() raises OBJECT_NOT_EXIST. Calls already dispatched to it go on.
  void uninstall();
  // After uninstall(): waits until no call dispatched to the servant is still
  // running (the POA has let go of it), or until `deadline`; false if a call
  // still runs then.
  bool wait_for_calls(std::chrono::steady_clock::time_point deadline) const;
  // The reference, making and activating the servant the first time
  // (borrowed; thread-safe). BAD_INV_ORDER before install().
  CORBA::Object_ptr reference() const;
  bool has_servant() const;
  Components::ConnectionDescriptions describe_connections() const override;

 private:
  CORBA::Object_var executor_;
  std::unique_ptr<LocalConsumerBase> consumer_;
  ServantFactory make_servant_;
  mutable std::mutex mutex_;  // guards what follows
  PortableServer::POA_var poa_;
  std::string object_id_;
  bool removed_ = false;
  mutable PortableServer::ServantBase* servant_ = nullptr;
  mutable CORBA::Object_var reference_;
};

}  // namespace mwccm
