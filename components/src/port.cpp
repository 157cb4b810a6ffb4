// Port, ProvidedPort: names, kinds, the type check done once per connect.
#include <mwccm/errors.hpp>
#include <mwccm/port.hpp>

namespace mwccm {

namespace {
const std::string unnamed_component = "(not installed)";

const char* kind_word(Components::PortKind kind) {
  switch (kind) {
    case Components::FACET:
      return "facet";
    case Components::SIMPLEX_RECEPTACLE:
      return "receptacle";
    case Components::MULTIPLEX_RECEPTACLE:
      return "multiplex receptacle";
    case Components::PUBLISHER:
      return "publisher";
    case Components::EMITTER:
      return "emitter";
    case Components::CONSUMER:
      return "sink";
    default:
      return "port";
  }
}
}  // namespace

Port::Port(std::string name, Components::PortKind kind, std::string type_id)
    : name_(std::move(name)),
      kind_(kind),
      type_id_(std::move(type_id)),
      component_(&unnamed_component) {}

Port::~Port() = default;

std::string Port::describe() const { return describe_port(kind_word(kind_), name_, *component_); }

void Port::check_type(CORBA::Object_ptr ref, const char* operation) const {
  if (CORBA::is_nil(ref)) {
    raise<Components::InvalidConnection>(describe() + " got a nil reference; " + operation +
                                         " refused");
  }
  bool is_a = false;
  try {
    is_a = ref->_is_a(type_id_.c_str());
  } catch (const CORBA::SystemException& e) {
    raise<Components::InvalidConnection>(describe() + ": the reference could not be checked (" +
                                         e._name() + "); " + operation + " refused");
  }
  if (!is_a) {
    raise<Components::InvalidConnection>(describe() + " takes " + type_id_ +
                                         ", the reference is not one; " + operation + " refused");
  }
}

ProvidedPort::ProvidedPort(std::string name, Components::PortKind kind, std::string type_id,
                           PortableServer::ServantBase* servant)
    : Port(std::move(name), kind, std::move(type_id)), servant_(servant) {}

// The table adopted the glue's reference count on the servant.
ProvidedPort::~ProvidedPort() { servant_->_remove_ref(); }

Components::ConnectionDescriptions ProvidedPort::describe_connections() const {
  Components::ConnectionDescriptions out;
  if (!CORBA::is_nil(reference_.in())) {
    out.length(1);
    out[0].objref = CORBA::Object::_duplicate(reference_.in());
  }
  return out;
}

}  // namespace mwccm
