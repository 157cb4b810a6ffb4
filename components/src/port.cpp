// Port, ProvidedPort: names, kinds, the type check done once per connect.
#include <algorithm>
#include <mwccm/errors.hpp>
#include <mwccm/port.hpp>
#include <thread>

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
                           CORBA::Object_ptr executor, std::unique_ptr<LocalConsumerBase> consumer,
                           ServantFactory make_servant)
    : Port(std::move(name), kind, std::move(type_id)),
      executor_(CORBA::Object::_duplicate(executor)),
      consumer_(std::move(consumer)),
      make_servant_(std::move(make_servant)) {}

// The port adopted the factory's reference count on the servant.
ProvidedPort::~ProvidedPort() {
  if (servant_ != nullptr) servant_->_remove_ref();
}

void ProvidedPort::install(PortableServer::POA_ptr poa, std::string object_id) {
  std::lock_guard lock(mutex_);
  poa_ = PortableServer::POA::_duplicate(poa);
  object_id_ = std::move(object_id);
}

void ProvidedPort::uninstall() {
  std::lock_guard lock(mutex_);
  removed_ = true;
  if (CORBA::is_nil(reference_.in())) return;
  PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(object_id_.c_str());
  poa_->deactivate_object(oid.in());
}

CORBA::Object_ptr ProvidedPort::reference() const {
  std::lock_guard lock(mutex_);
  if (removed_) throw CORBA::OBJECT_NOT_EXIST(0, CORBA::COMPLETED_NO);
  if (!CORBA::is_nil(reference_.in())) return reference_.in();
  if (CORBA::is_nil(poa_.in())) throw CORBA::BAD_INV_ORDER(0, CORBA::COMPLETED_NO);
  if (servant_ == nullptr) servant_ = make_servant_();
  PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(object_id_.c_str());
  poa_->activate_object_with_id(oid.in(), servant_);
  reference_ = poa_->id_to_reference(oid.in());
  return reference_.in();
}

// omniORB releases a deactivated servant (its count) once the last call
// dispatched to it has returned, and says so to nobody but a servant
// activator; the container's POA has none, so the count is watched. This
// runs once per sink or facet at a component's removal, never on a call.
bool ProvidedPort::wait_for_calls(std::chrono::steady_clock::time_point deadline) const {
  PortableServer::ServantBase* servant = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (CORBA::is_nil(reference_.in())) return true;  // never activated: never called
    servant = servant_;
  }
  auto pause = std::chrono::microseconds(50);
  while (servant->_refcount_value() > 1) {  // 1: the port's own count
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10'000));
  }
  return true;
}

bool ProvidedPort::has_servant() const {
  std::lock_guard lock(mutex_);
  return servant_ != nullptr;
}

Components::ConnectionDescriptions ProvidedPort::describe_connections() const {
  Components::ConnectionDescriptions out;
  {
    std::lock_guard lock(mutex_);
    if (removed_) return out;
  }
  out.length(1);
  out[0].objref = CORBA::Object::_duplicate(reference());
  return out;
}

}  // namespace mwccm
