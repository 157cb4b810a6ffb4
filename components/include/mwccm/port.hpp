// The port base classes the port table works with by name. Typed ports
// (receptacles.hpp, event_source.hpp) derive from ReceptaclePort and
// SourcePort; facets and sinks are ProvidedPorts the table owns.
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
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

// Simplex and multiplex receptacles, connected by name with an untyped reference.
class ReceptaclePort : public Port {
 public:
  using Port::Port;
  // Returns a cookie for a multiplex receptacle, a null cookie for a simplex one.
  virtual Components::Cookie* connect_object(CORBA::Object_ptr ref) = 0;
  // Returns the former connection (the caller releases it).
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
};

// A facet or an event sink: a glue servant the container activates in its
// POA under "<component key>#<port name>". The port holds one servant
// reference count; the reference exists once the component is installed.
class ProvidedPort final : public Port {
 public:
  ProvidedPort(std::string name, Components::PortKind kind, std::string type_id,
               PortableServer::ServantBase* servant);
  ~ProvidedPort() override;

  PortableServer::ServantBase* servant() const noexcept { return servant_; }
  CORBA::Object_ptr reference() const noexcept {
    return reference_.in();
  }  // borrowed; nil before install
  void set_reference(CORBA::Object_ptr ref) { reference_ = CORBA::Object::_duplicate(ref); }
  Components::ConnectionDescriptions describe_connections() const override;

 private:
  PortableServer::ServantBase* servant_;
  CORBA::Object_var reference_;
};

}  // namespace mwccm
