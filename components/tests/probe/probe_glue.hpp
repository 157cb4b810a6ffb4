// Glue for the Probe component, written by hand exactly as mwccm-gen would
// write it (include/mwccm/README.md, "What generated glue calls").
#pragma once

#include <Probe_ccm.hh>
#include <mwccm/glue.hpp>

namespace Probe_glue {

class Counter_facet final : public virtual POA_Probe::Counter {
 public:
  explicit Counter_facet(Probe::CCM_Counter_ptr executor) : executor_(executor) {}
  CORBA::Long increment(CORBA::Long by) override { return executor_->increment(by); }

 private:
  Probe::CCM_Counter_var executor_;
};

// A receptacle's executor side of a CORBA connection to a Counter.
class Counter_forward final : public virtual Probe::CCM_Counter,
                              public virtual mwccm::CountedLocalObject {
 public:
  explicit Counter_forward(Probe::Counter_ptr target)
      : target_(Probe::Counter::_duplicate(target)) {}
  static Probe::CCM_Counter_ptr make(Probe::Counter_ptr target) {
    return new Counter_forward(target);
  }
  CORBA::Long increment(CORBA::Long by) override { return target_->increment(by); }

 private:
  Probe::Counter_var target_;
};

// The sink `echoes` as a plain C++ object.
class Tick_echoes_local final : public mwccm::LocalConsumer<Probe::Tick*> {
 public:
  explicit Tick_echoes_local(Probe::CCM_Node_ptr executor)
      : executor_(Probe::CCM_Node::_duplicate(executor)) {}
  void push(Probe::Tick* ev) override { executor_->push_echoes(ev); }

 private:
  Probe::CCM_Node_var executor_;
};

class Node_servant;

class Tick_echoes_consumer final : public virtual POA_Probe::TickConsumer {
 public:
  explicit Tick_echoes_consumer(Node_servant& component) : component_(component) {}
  void push_Tick(Probe::Tick* ev) override;
  void push_event(Components::EventBase* ev) override;

 private:
  Node_servant& component_;  // the component outlives its sinks (it owns their port)
};

class Node_servant final : public virtual POA_Probe::Node, public virtual mwccm::ComponentServant {
 public:
  explicit Node_servant(Probe::CCM_Node_ptr executor);

  Probe::Counter_ptr provide_count() override;
  void connect_peer(Probe::Counter_ptr c) override { peer_.connect(c); }
  Probe::Counter_ptr disconnect_peer() override { return peer_.disconnect(); }
  Probe::Counter_ptr get_connection_peer() override { return peer_.get_connection(); }
  Components::Cookie* connect_peers(Probe::Counter_ptr c) override { return peers_.connect(c); }
  Probe::Counter_ptr disconnect_peers(Components::Cookie* ck) override {
    return peers_.disconnect(ck);
  }
  Probe::peersConnections* get_connections_peers() override;
  Components::Cookie* subscribe_ticks(Probe::TickConsumer_ptr c) override {
    return ticks_.subscribe(c);
  }
  Probe::TickConsumer_ptr unsubscribe_ticks(Components::Cookie* ck) override {
    return ticks_.unsubscribe(ck);
  }
  void connect_alarms(Probe::TickConsumer_ptr c) override { alarms_.connect(c); }
  Probe::TickConsumer_ptr disconnect_alarms() override { return alarms_.disconnect(); }
  Probe::TickConsumer_ptr get_consumer_echoes() override;
  CORBA::ULong rate() override { return executor_->rate(); }
  void rate(CORBA::ULong value) override { executor_->rate(value); }

  Probe::CCM_Node_ptr typed_executor() const noexcept { return executor_.in(); }

  mwccm::SimplexReceptacle<Probe::Counter, Probe::CCM_Counter> peer_{"peer",
                                                                     &Counter_forward::make};
  mwccm::MultiplexReceptacle<Probe::Counter, Probe::CCM_Counter> peers_{"peers",
                                                                        &Counter_forward::make};
  mwccm::EventSource<Probe::TickConsumer, Probe::Tick*> ticks_{"ticks",
                                                               mwccm::SourceKind::publisher};
  mwccm::EventSource<Probe::TickConsumer, Probe::Tick*> alarms_{"alarms",
                                                                mwccm::SourceKind::emitter};

 protected:
  bool set_attribute(const char* name, const CORBA::Any& value) override;
  Components::SessionContext_ptr create_context() override;

 private:
  Probe::CCM_Node_var executor_;
};

class Node_context final : public virtual Probe::CCM_Node_Context,
                           public virtual mwccm::SessionContextBase,
                           public virtual mwccm::CountedLocalObject {
 public:
  explicit Node_context(Node_servant& servant)
      : mwccm::SessionContextBase(servant), servant_(servant) {}
  Probe::Counter_ptr get_connection_peer() override { return servant_.peer_.get_connection(); }
  Probe::peersConnections* get_connections_peers() override {
    return servant_.get_connections_peers();
  }
  void push_ticks(Probe::Tick* ev) override {
    servant_.ticks_.push(ev, [ev](Probe::TickConsumer_ptr c) { c->push_Tick(ev); });
  }
  void push_alarms(Probe::Tick* ev) override {
    servant_.alarms_.push(ev, [ev](Probe::TickConsumer_ptr c) { c->push_Tick(ev); });
  }

 private:
  Node_servant& servant_;  // kept alive by SessionContextBase's reference count
};

class NodeHome_servant final : public virtual POA_Probe::NodeHome,
                               public virtual mwccm::HomeServant {
 public:
  explicit NodeHome_servant(Probe::CCM_NodeHome_ptr executor) : executor_(executor) {}
  Probe::Node_ptr create() override { return create_typed<Probe::Node>(); }

 protected:
  mwccm::ComponentServant* create_component_servant() override;

 private:
  Probe::CCM_NodeHome_var executor_;
};

// The Tick event's value type and its factory (generated for every eventtype).
class Tick_value final : public virtual OBV_Probe::Tick,
                         public virtual CORBA::DefaultValueRefCountBase {
 public:
  Tick_value() = default;
  explicit Tick_value(CORBA::ULongLong number) { this->number(number); }
  Probe::Tick* _copy_value() override { return new Tick_value(number()); }
};
void register_value_factories(CORBA::ORB_ptr orb);

}  // namespace Probe_glue
