// The base of every generated component servant and of its context.
//
// ComponentServant implements Components::CCMObject (navigation, connections,
// events by name through its PortTable; configuration through the glue's
// set_attribute; the lifecycle). The generated servant derives from it and
// from POA_<Module>::<Component>, registers its ports in its constructor and
// forwards the typed port operations to its typed port members.
//
// Lifecycle, driven by the container, each step refused out of order with
// IllegalState: created → set_session_context (install) → configured
// (configuration_complete) → active (ccm_activate) ⇄ passive (ccm_passivate)
// → removed (ccm_remove).
#pragma once

#include <omniORB4/CORBA.h>

#include <Components.hh>
#include <mutex>
#include <mwccm/port_table.hpp>
#include <string>

namespace mwccm {

class Container;
class HomeServant;

enum class LifecycleState { created, context_set, configured, active, passive, removed };
const char* to_string(LifecycleState state) noexcept;

class ComponentServant : public virtual POA_Components::CCMObject {
 public:
  ~ComponentServant() override;

  // Components::Navigation, Receptacles, Events: by name, through ports().
  CORBA::Object_ptr provide_facet(const char* name) override;
  Components::PortDescriptions* get_all_ports() override;
  Components::Cookie* connect(const char* name, CORBA::Object_ptr connection) override;
  CORBA::Object_ptr disconnect(const char* name, Components::Cookie* ck) override;
  Components::ConnectionDescriptions* get_connections(const char* name) override;
  Components::EventConsumerBase_ptr get_consumer(const char* sink_name) override;
  Components::Cookie* subscribe(const char* publisher_name,
                                Components::EventConsumerBase_ptr subscriber) override;
  Components::EventConsumerBase_ptr unsubscribe(const char* publisher_name,
                                                Components::Cookie* ck) override;
  void connect_consumer(const char* emitter_name,
                        Components::EventConsumerBase_ptr consumer) override;
  Components::EventConsumerBase_ptr disconnect_consumer(const char* source_name) override;

  // Components::CCMObject.
  Components::CCMHome_ptr get_ccm_home() override;
  void set_configuration(
      const Components::ConfigValues& descr) override;  // before configuration_complete
  void configuration_complete() override;
  // Passivates if active, deactivates every object, waits for the calls
  // already dispatched to them, then ccm_remove.
  void remove() override;

  PortableServer::POA_ptr _default_POA() override;  // the container's POA

  // The component's key in its container (its object id, its name in messages).
  const std::string& key() const noexcept { return ports_.component_name(); }
  LifecycleState state() const;
  PortTable& ports() noexcept { return ports_; }
  Components::EnterpriseComponent_ptr executor() const noexcept {
    return executor_.in();
  }  // borrowed
  // This component's reference (borrowed; nil before install).
  Components::CCMObject_ptr reference() const noexcept { return reference_.in(); }

 protected:
  // `executor` is adopted. If it is a Components::SessionComponent, the
  // lifecycle calls reach it; otherwise they only change the state.
  explicit ComponentServant(Components::EnterpriseComponent_ptr executor);

  // Glue: sets attribute `name` from `value` on the executor. Returns false
  // when the component has no writable attribute of that name; raises
  // InvalidConfiguration (see attribute_type_mismatch) for a value of the
  // wrong type.
  virtual bool set_attribute(const char* name, const CORBA::Any& value);

  // Glue: a new context (CCM_<Component>_Context over this servant).
  virtual Components::SessionContext_ptr create_context() = 0;

  // Glue helper for set_attribute: the InvalidConfiguration to raise.
  [[noreturn]] void attribute_type_mismatch(const char* name, const char* expected_type) const;

 private:
  friend class Container;
  // The container's side of the lifecycle (container.cpp).
  void install(Container& container, HomeServant& home, const std::string& key);
  void activate();
  void passivate();
  void require(LifecycleState wanted, const char* step) const;  // under mutex_
  void deactivate_all();  // the component and its facets and sinks, from the POA
  bool wait_for_calls();  // to the facets and sinks, after deactivate_all (bounded)
  Components::SessionComponent_ptr session() const noexcept { return session_.in(); }

  PortTable ports_;
  Components::EnterpriseComponent_var executor_;
  Components::SessionComponent_var session_;  // executor_ narrowed once, or nil
  Components::SessionContext_var context_;
  Components::CCMObject_var reference_;
  Components::CCMHome_var home_;
  Container* container_ = nullptr;
  mutable std::mutex mutex_;  // lifecycle steps only; never taken on the call path
  LifecycleState state_ = LifecycleState::created;
};

// The base of every generated context: implements Components::SessionContext.
// The generated CCM_<Component>_Context derives from it and reaches the
// component's ports through the servant it was made for.
class SessionContextBase : public virtual Components::SessionContext {
 public:
  // Holds a reference count on `servant`, so that a context kept by an
  // executor never outlives the ports it reads.
  explicit SessionContextBase(ComponentServant& servant);
  ~SessionContextBase() override;

  Components::CCMHome_ptr get_CCM_home() override;
  CORBA::Object_ptr get_CCM_object() override;

 protected:
  ComponentServant& component_servant() const noexcept { return servant_; }

 private:
  ComponentServant& servant_;
};

}  // namespace mwccm
