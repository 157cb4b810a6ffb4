// Delivery strategies by name (docs/delivery.md), as homes are
// (home_registry.hpp): how the events of a source reach its sinks, chosen
// by configuration (a plan's mwccm.EventDelivery, a driver's option), the
// Strategy and Component Configurator patterns of CIAO's container-managed
// pub/sub. Each strategy is a folder components/delivery/<name>/ that
// registers itself with one macro:
//
//   MWCCM_REGISTER_DELIVERY(ChannelDelivery);
//
// and whoever needs one asks by name (find_delivery), never branching on it.
// A strategy wires an assembly's connections (DeliveryWiring): sinks in the
// source's process, the receiving side of another process (an endpoint, as
// text, that the sending side is wired to) and the sending side.
#pragma once

#include <omniORB4/CORBA.h>

#include <memory>
#include <mwccm/assembly.hpp>
#include <mwccm/channel_receivers.hpp>
#include <mwccm/dds_channel.hpp>
#include <mwccm/event_filter.hpp>
#include <mwccm/named_registry.hpp>
#include <string>
#include <vector>

namespace mwccm {

// What every wiring of an assembly is given.
struct WiringSettings {
  CORBA::ORB_ptr orb = CORBA::ORB::_nil();  // borrowed
  std::string transport;                    // between processes: one of transports()
  ReceiverSettings receiver;                // where this process receives
  DdsTopic topic;                           // a topic-based strategy's topic
};

// The connections of one assembly through one strategy, and what they share
// (gateways, writers). Lives as long as the assembly's connections.
class DeliveryWiring {
 public:
  virtual ~DeliveryWiring() = default;
  // `sink` fed by `source`, both in this process.
  virtual void connect_local(const PortEnd& source, const PortEnd& sink,
                             const EventFilter& filter) = 0;
  // The receiving side: `sink` here fed by `supplier` ("instance.port") of
  // another process; returns the endpoint the sending side is wired to.
  virtual std::string accept(const std::string& supplier, const PortEnd& sink,
                             const EventFilter& filter) = 0;
  // The sending side: `source` here to the endpoint another process's
  // accept() returned, for the sink `far` (named in messages).
  virtual void route(const PortEnd& source, const std::string& endpoint, const PortEnd& far) = 0;
  // Before any process of a deployment wires its far ends (start_launch):
  // what must exist early, as a DDS writer that other processes' readers
  // wait to match when they finish.
  virtual void prepare(const PortEnd& /*source*/) {}
  // Once every connection is wired: returns when the strategy can deliver
  // (a DDS writer matched its readers); std::runtime_error if it cannot.
  virtual void finish() {}
};

class Delivery {
 public:
  virtual ~Delivery() = default;
  virtual const char* name() const noexcept = 0;
  // One line for --describe and docs.
  virtual const char* summary() const noexcept = 0;
  // The transports it crosses processes by, the default first.
  virtual std::vector<std::string> transports() const = 0;
  // Whether sinks in other processes are fed by their containers' channels,
  // through endpoints accept() returned (false: a CORBA reference each, as
  // direct calls are made across processes).
  virtual bool links_channels() const noexcept { return true; }
  // Whether sinks in the source's process are called before its push
  // returns (false: on a thread of the strategy's, as a DDS reader's).
  virtual bool calls_local_sinks_on_the_pushing_thread() const noexcept { return true; }
  // Why this build cannot use it ("" if it can): a middleware not installed.
  virtual std::string unavailable() const { return {}; }
  virtual std::unique_ptr<DeliveryWiring> wire(Assembly& assembly,
                                               const WiringSettings& settings) const = 0;
  // A strategy that links containers' channels by endpoint: the sending
  // side of a gateway to the endpoint a receiver of its kind published
  // (`settings`: this process's, as a multicast group's interface). Null
  // for one that does not (direct, dds: a topic's writer).
  virtual std::shared_ptr<Gateway> gateway_to(CORBA::ORB_ptr, const std::string& /*endpoint*/,
                                              const ReceiverSettings&) const {
    return nullptr;
  }
};

// A Delivery whose wiring is `Wiring`, made from (Assembly&, const WiringSettings&).
template <class Wiring>
class DeliveryOf : public Delivery {
 public:
  std::unique_ptr<DeliveryWiring> wire(Assembly& assembly,
                                       const WiringSettings& settings) const override {
    return std::make_unique<Wiring>(assembly, settings);
  }
};

namespace detail {
template <>
NamedRegistry<Delivery>& registry_of<Delivery>();
}  // namespace detail

// The strategy of that name, or null.
inline const Delivery* find_delivery(const std::string& name) noexcept {
  return detail::registry_of<Delivery>().find(name);
}
// Every registered strategy, by name.
inline std::vector<const Delivery*> deliveries() { return detail::registry_of<Delivery>().all(); }
// The names, ", "-separated, for messages ("channel, dds, direct").
inline std::string delivery_names() { return detail::registry_of<Delivery>().names(); }

}  // namespace mwccm

// Registers a default-constructible mwccm::Delivery under its name() at start-up.
#define MWCCM_REGISTER_DELIVERY(Strategy)                                 \
  static const ::mwccm::detail::Registration<Strategy, ::mwccm::Delivery> \
      mwccm_delivery_registration_##Strategy
