// Glue for the Probe component (see probe_glue.hpp).
#include "probe_glue.hpp"

#include <memory>
#include <mutex>

namespace Probe_glue {

void Tick_echoes_consumer::push_Tick(Probe::Tick* ev) {
  component_.typed_executor()->push_echoes(ev);
}

void Tick_echoes_consumer::push_event(Components::EventBase* ev) {
  Probe::Tick* tick = Probe::Tick::_downcast(ev);
  if (tick == nullptr) {
    mwccm::raise<Components::BadEventType>("sink 'echoes' of component '" + component_.key() +
                                           "' takes " + Probe::Tick::_PD_repoId);
  }
  push_Tick(tick);
}

Node_servant::Node_servant(Probe::CCM_Node_ptr executor)
    : mwccm::ComponentServant(Probe::CCM_Node::_duplicate(executor)), executor_(executor) {
  Probe::CCM_Counter_var count = executor_->get_count();
  ports().add_facet("count", Probe::Counter::_PD_repoId, count.in(),
                    [count]() -> PortableServer::ServantBase* {
                      return new Counter_facet(Probe::CCM_Counter::_duplicate(count.in()));
                    });
  ports().add(peer_);
  ports().add(peers_);
  ports().add(ticks_);
  ports().add(alarms_);
  ports().add_consumer(
      "echoes", Probe::TickConsumer::_PD_repoId,
      std::make_unique<Tick_echoes_local>(executor_.in()),
      [this]() -> PortableServer::ServantBase* { return new Tick_echoes_consumer(*this); });
}

Probe::Counter_ptr Node_servant::provide_count() {
  CORBA::Object_var facet = ports().provide_facet("count");
  return Probe::Counter::_unchecked_narrow(facet.in());
}

Probe::TickConsumer_ptr Node_servant::get_consumer_echoes() {
  Components::EventConsumerBase_var sink = ports().get_consumer("echoes");
  return Probe::TickConsumer::_unchecked_narrow(sink.in());
}

Probe::peersConnections* Node_servant::get_connections_peers() {
  const auto& connections = peers_.connections();
  auto* out = new Probe::peersConnections;
  out->length(static_cast<CORBA::ULong>(connections.size()));
  for (CORBA::ULong i = 0; i < out->length(); ++i) {
    CORBA::Object_var reference = connections[i].reference();  // made now for a plain one
    (*out)[i].objref = Probe::Counter::_unchecked_narrow(reference.in());
    (*out)[i].ck = mwccm::make_cookie(connections[i].cookie);
  }
  return out;
}

bool Node_servant::set_attribute(const char* name, const CORBA::Any& value) {
  if (std::string_view(name) == "rate") {
    CORBA::ULong rate = 0;
    if (!(value >>= rate)) attribute_type_mismatch(name, "unsigned long");
    executor_->rate(rate);
    return true;
  }
  return false;
}

Components::SessionContext_ptr Node_servant::create_context() { return new Node_context(*this); }

mwccm::ComponentServant* NodeHome_servant::create_component_servant() {
  Components::EnterpriseComponent_var created = executor_->create();
  Probe::CCM_Node_var executor = Probe::CCM_Node::_narrow(created.in());
  if (CORBA::is_nil(executor.in())) {
    mwccm::raise<Components::CreateFailure>("home executor of NodeHome made no CCM_Node");
  }
  return new Node_servant(executor._retn());
}

namespace {
class Tick_factory final : public CORBA::ValueFactoryBase {
  CORBA::ValueBase* create_for_unmarshal() override { return new Tick_value; }
};
}  // namespace

void register_value_factories(CORBA::ORB_ptr orb) {
  static std::once_flag once;
  std::call_once(once, [orb] {
    CORBA::ValueFactoryBase_var factory = new Tick_factory;
    CORBA::ValueFactoryBase_var previous =
        orb->register_value_factory(Probe::Tick::_PD_repoId, factory.in());
  });
}

}  // namespace Probe_glue
