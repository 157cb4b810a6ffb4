// The `direct` delivery strategy (docs/events.md section 1): one CORBA call
// per consumer on the pushing thread (the source's DirectDelivery), whether
// the sink is in this process (omniORB's collocated call) or another (IIOP).
// The endpoint a receiving side publishes is its sink's consumer reference.
#include <mwccm/delivery.hpp>

namespace mwccm {
namespace {

class DirectWiring final : public DeliveryWiring {
 public:
  DirectWiring(Assembly& assembly, const WiringSettings& settings)
      : assembly_(assembly), orb_(CORBA::ORB::_duplicate(settings.orb)) {}

  void connect_local(const PortEnd& source, const PortEnd& sink, const EventFilter&) override {
    assembly_.subscribe(source, sink);
  }
  std::string accept(const std::string&, const PortEnd& sink, const EventFilter&) override {
    Components::EventConsumerBase_var consumer = assembly_.consumer(sink);
    CORBA::String_var ior = orb_->object_to_string(consumer.in());
    return ior.in();
  }
  void route(const PortEnd& source, const std::string& endpoint, const PortEnd& far) override {
    CORBA::Object_var object = orb_->string_to_object(endpoint.c_str());
    Components::EventConsumerBase_var consumer =
        Components::EventConsumerBase::_narrow(object.in());
    assembly_.subscribe_to(source, consumer.in(), far);
  }

 private:
  Assembly& assembly_;
  CORBA::ORB_var orb_;
};

class DirectDeliveryStrategy final : public DeliveryOf<DirectWiring> {
 public:
  const char* name() const noexcept override { return "direct"; }
  const char* summary() const noexcept override {
    return "one CORBA call per subscriber (between processes: IIOP)";
  }
  std::vector<std::string> transports() const override { return {"iiop"}; }
  bool links_channels() const noexcept override { return false; }
};

MWCCM_REGISTER_DELIVERY(DirectDeliveryStrategy);

}  // namespace
}  // namespace mwccm
