// ComponentServant: CCMObject by name through the port table, and the
// component's side of the lifecycle. SessionContextBase: the generic part of
// every context.
#include <chrono>
#include <exception>
#include <iostream>
#include <mwccm/component_servant.hpp>
#include <mwccm/container.hpp>
#include <mwccm/errors.hpp>
#include <mwccm/home_servant.hpp>

namespace mwccm {

namespace {
// How long a component's removal waits for the calls already dispatched to
// its facets and sinks (ComponentServant::wait_for_calls).
constexpr std::chrono::seconds kCallsDrainLimit{10};
}  // namespace

const char* to_string(LifecycleState state) noexcept {
  switch (state) {
    case LifecycleState::created:
      return "created";
    case LifecycleState::context_set:
      return "context set";
    case LifecycleState::configured:
      return "configured";
    case LifecycleState::active:
      return "active";
    case LifecycleState::passive:
      return "passive";
    case LifecycleState::removed:
      return "removed";
  }
  return "unknown";
}

namespace {
PortableServer::ObjectId_var object_id(const std::string& id) {
  return PortableServer::string_to_ObjectId(id.c_str());
}
}  // namespace

ComponentServant::ComponentServant(Components::EnterpriseComponent_ptr executor)
    : executor_(executor), session_(Components::SessionComponent::_narrow(executor)) {}

ComponentServant::~ComponentServant() = default;

CORBA::Object_ptr ComponentServant::provide_facet(const char* name) {
  return ports_.provide_facet(name);
}
Components::PortDescriptions* ComponentServant::get_all_ports() { return ports_.get_all_ports(); }
Components::Cookie* ComponentServant::connect(const char* name, CORBA::Object_ptr connection) {
  return ports_.connect(name, connection);
}
CORBA::Object_ptr ComponentServant::disconnect(const char* name, Components::Cookie* ck) {
  return ports_.disconnect(name, ck);
}
Components::ConnectionDescriptions* ComponentServant::get_connections(const char* name) {
  return ports_.get_connections(name);
}
Components::EventConsumerBase_ptr ComponentServant::get_consumer(const char* sink_name) {
  return ports_.get_consumer(sink_name);
}
Components::Cookie* ComponentServant::subscribe(const char* publisher_name,
                                                Components::EventConsumerBase_ptr subscriber) {
  return ports_.subscribe(publisher_name, subscriber);
}
Components::EventConsumerBase_ptr ComponentServant::unsubscribe(const char* publisher_name,
                                                                Components::Cookie* ck) {
  return ports_.unsubscribe(publisher_name, ck);
}
void ComponentServant::connect_consumer(const char* emitter_name,
                                        Components::EventConsumerBase_ptr consumer) {
  ports_.connect_consumer(emitter_name, consumer);
}
Components::EventConsumerBase_ptr ComponentServant::disconnect_consumer(const char* source_name) {
  return ports_.disconnect_consumer(source_name);
}

Components::CCMHome_ptr ComponentServant::get_ccm_home() {
  return Components::CCMHome::_duplicate(home_.in());
}

PortableServer::POA_ptr ComponentServant::_default_POA() {
  if (container_ != nullptr) return PortableServer::POA::_duplicate(container_->poa());
  return PortableServer::ServantBase::_default_POA();
}

LifecycleState ComponentServant::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void ComponentServant::require(LifecycleState wanted, const char* step) const {
  if (state_ != wanted) {
    raise<Components::IllegalState>("component '" + key() + "' is " + to_string(state_) + ", not " +
                                    to_string(wanted) + "; " + step + " refused");
  }
}

bool ComponentServant::set_attribute(const char*, const CORBA::Any&) { return false; }

void ComponentServant::attribute_type_mismatch(const char* name, const char* expected_type) const {
  raise<Components::InvalidConfiguration>("attribute '" + std::string(name) + "' of component '" +
                                          key() + "' takes " + expected_type +
                                          "; set_configuration refused");
}

void ComponentServant::install(Container& container, HomeServant& home, const std::string& key) {
  std::lock_guard lock(mutex_);
  require(LifecycleState::created, "install");
  ports_.set_component_name(key);
  container_ = &container;
  home_ = Components::CCMHome::_duplicate(home.reference());
  PortableServer::POA_ptr poa = container.poa();
  // Facets and sinks get their servants when a reference is first asked for.
  for (const auto& port : ports_.provided()) port->install(poa, key + "#" + port->name());
  auto oid = object_id(key);
  poa->activate_object_with_id(oid.in(), this);
  CORBA::Object_var ref = poa->id_to_reference(oid.in());
  reference_ = Components::CCMObject::_unchecked_narrow(ref.in());
  try {
    context_ = create_context();
    if (!CORBA::is_nil(session_.in())) session_->set_session_context(context_.in());
  } catch (...) {
    deactivate_all();
    context_ = Components::SessionContext::_nil();
    throw;
  }
  state_ = LifecycleState::context_set;
}

void ComponentServant::deactivate_all() {
  for (const auto& port : ports_.provided()) port->uninstall();
  auto oid = object_id(key());
  container_->poa()->deactivate_object(oid.in());
}

void ComponentServant::set_configuration(const Components::ConfigValues& descr) {
  std::lock_guard lock(mutex_);
  if (state_ != LifecycleState::context_set) {
    raise<Components::InvalidConfiguration>("component '" + key() + "' is " + to_string(state_) +
                                            "; set_configuration refused");
  }
  for (CORBA::ULong i = 0; i < descr.length(); ++i) {
    if (!set_attribute(descr[i].name.in(), descr[i].value)) {
      raise<Components::InvalidConfiguration>("component '" + key() +
                                              "' has no writable attribute '" + descr[i].name.in() +
                                              "'; set_configuration refused");
    }
  }
}

void ComponentServant::configuration_complete() {
  std::lock_guard lock(mutex_);
  require(LifecycleState::context_set, "configuration_complete");
  if (!CORBA::is_nil(session_.in())) session_->configuration_complete();
  state_ = LifecycleState::configured;
}

void ComponentServant::activate() {
  std::lock_guard lock(mutex_);
  if (state_ != LifecycleState::passive) require(LifecycleState::configured, "ccm_activate");
  if (!CORBA::is_nil(session_.in())) session_->ccm_activate();
  state_ = LifecycleState::active;
}

void ComponentServant::passivate() {
  std::lock_guard lock(mutex_);
  require(LifecycleState::active, "ccm_passivate");
  if (!CORBA::is_nil(session_.in())) session_->ccm_passivate();
  state_ = LifecycleState::passive;
}

void ComponentServant::remove() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == LifecycleState::removed || container_ == nullptr) {
      raise<Components::RemoveFailure>("component '" + key() + "' is " + to_string(state_) +
                                       "; remove refused");
    }
    if (state_ == LifecycleState::active && !CORBA::is_nil(session_.in()))
      session_->ccm_passivate();
    state_ = LifecycleState::removed;
    deactivate_all();  // no new call reaches the component
  }
  // A call dispatched before that (an event from another process, say) may
  // still run in the executor and use its context: the executor is removed,
  // and the context freed, only once those calls have returned. Outside the
  // lock: such a call may ask this servant something.
  if (!wait_for_calls()) return;
  Container* container = nullptr;
  std::exception_ptr failure;  // ccm_remove's: raised once the component is gone all the same
  {
    std::lock_guard lock(mutex_);
    try {
      if (!CORBA::is_nil(session_.in())) session_->ccm_remove();
    } catch (...) {
      failure = std::current_exception();
    }
    // Break the servant ↔ context cycle; the executor goes with the component.
    context_ = Components::SessionContext::_nil();
    session_ = Components::SessionComponent::_nil();
    executor_ = Components::EnterpriseComponent::_nil();
    container = container_;
  }
  container->forget_component(*this);  // may drop the last reference count on *this
  if (failure) std::rethrow_exception(failure);
}

// Bounded: a call that hangs (on a peer that no longer answers) must not hang
// the teardown. Then the component is kept, executor and context, for the
// life of the process: freeing them under a running call is worse.
bool ComponentServant::wait_for_calls() {
  const auto deadline = std::chrono::steady_clock::now() + kCallsDrainLimit;
  for (const auto& port : ports_.provided()) {
    if (port->wait_for_calls(deadline)) continue;
    std::cerr << "mwccm: component '" << key() << "': a call to " << port->describe()
              << " is still running " << kCallsDrainLimit.count()
              << " s after its removal; the component is kept until the process exits\n";
    _add_ref();  // never released
    return false;
  }
  return true;
}

SessionContextBase::SessionContextBase(ComponentServant& servant) : servant_(servant) {
  servant_._add_ref();
}

SessionContextBase::~SessionContextBase() { servant_._remove_ref(); }

Components::CCMHome_ptr SessionContextBase::get_CCM_home() { return servant_.get_ccm_home(); }

CORBA::Object_ptr SessionContextBase::get_CCM_object() {
  if (CORBA::is_nil(servant_.reference())) {
    raise<Components::IllegalState>("component '" + servant_.key() +
                                    "' has no reference yet; get_CCM_object refused");
  }
  return CORBA::Object::_duplicate(servant_.reference());
}

}  // namespace mwccm
