// The `channel` delivery strategy (docs/events.md sections 2 to 4): the
// source's container's event channel calls the sinks of its process with
// the pushed event, and sends it once to every other process that has
// sinks, through the gateway the transport names (iiop, udp, multicast);
// there, the receiver's channel feeds them. The endpoint a receiving side
// publishes is its receiver's (channel_gateways.hpp).
#include <iterator>
#include <map>
#include <mwccm/channel_gateways.hpp>
#include <mwccm/delivery.hpp>

#include "channel_transports.hpp"

namespace mwccm {
namespace {

std::shared_ptr<Gateway> channel_gateway(CORBA::ORB_ptr orb, const std::string& text,
                                         const ReceiverSettings& settings) {
  ChannelEndpoint endpoint = parse_endpoint(text);
  if (endpoint.kind == "multicast") endpoint.interface = settings.multicast_interface;
  return make_gateway(orb, endpoint);
}

class ChannelWiring final : public DeliveryWiring {
 public:
  ChannelWiring(Assembly& assembly, const WiringSettings& settings)
      : assembly_(assembly), orb_(CORBA::ORB::_duplicate(settings.orb)), settings_(settings) {}

  void connect_local(const PortEnd& source, const PortEnd& sink,
                     const EventFilter& filter) override {
    assembly_.subscribe_channel(source, sink, filter);
  }
  std::string accept(const std::string& supplier, const PortEnd& sink,
                     const EventFilter& filter) override {
    return assembly_.accept_channel(supplier, sink, filter, settings_.transport,
                                    settings_.receiver);
  }
  // One gateway per endpoint, however many sinks are behind it: the
  // channel sends each event through a gateway once. A multicast group's
  // datagrams leave through this process's own interface.
  void route(const PortEnd& source, const std::string& endpoint_text, const PortEnd& far) override {
    ChannelEndpoint endpoint = parse_endpoint(endpoint_text);
    if (endpoint.kind == "multicast") endpoint.interface = settings_.receiver.multicast_interface;
    auto& gateway = gateways_[endpoint.text()];
    if (!gateway) gateway = make_gateway(orb_.in(), endpoint);
    assembly_.route_channel(source, gateway, far);
  }

 private:
  Assembly& assembly_;
  CORBA::ORB_var orb_;
  WiringSettings settings_;
  std::map<std::string, std::shared_ptr<Gateway>> gateways_;
};

class ChannelDelivery final : public DeliveryOf<ChannelWiring> {
 public:
  const char* name() const noexcept override { return "channel"; }
  const char* summary() const noexcept override {
    return "through the containers' event channels: one message per event to each other "
           "process, by the transport's gateway";
  }
  std::vector<std::string> transports() const override {
    return {std::begin(channel_delivery::kTransports), std::end(channel_delivery::kTransports)};
  }
  std::shared_ptr<Gateway> gateway_to(CORBA::ORB_ptr orb, const std::string& endpoint,
                                      const ReceiverSettings& settings) const override {
    return channel_gateway(orb, endpoint, settings);
  }
};

MWCCM_REGISTER_DELIVERY(ChannelDelivery);

}  // namespace
}  // namespace mwccm
