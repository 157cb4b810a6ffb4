// What the plan check asks of a delivery strategy (docs/delivery.md), without
// the ORB: its name, the properties its mwccm.EventDelivery requirement
// takes and their values, whether this build has it, and what its
// connections must agree on across a plan. Each strategy's folder
// components/delivery/<name>/ registers its check beside its Delivery
// (delivery.hpp), with one macro:
//
//   MWCCM_REGISTER_DELIVERY_CHECK(DdsCheck);
//
// The plan check (components/deployment/check) asks by name; it links the
// library these live in (mwccm_delivery_checks), not libmwccm.
#pragma once

#include <map>
#include <memory>
#include <mwccm/named_registry.hpp>
#include <string>
#include <vector>

namespace mwccm {

// One connection delivered through a strategy, as a plan writes it.
struct DeliveryUse {
  std::string connection;       // its name, for messages
  std::string source_instance;  // the event source's instance name ("" if unknown)
  std::string source_port;
  std::map<std::string, std::string> properties;  // the requirement's, as written
};

// What a strategy's connections must agree on across one plan (a DDS topic
// carries one source's events with one QoS).
class DeliveryPlanRule {
 public:
  virtual ~DeliveryPlanRule() = default;
  // Why `use` conflicts with a connection added before ("" if it does not).
  virtual std::string add(const DeliveryUse& use) = 0;
};

class DeliveryCheck {
 public:
  virtual ~DeliveryCheck() = default;
  virtual const char* name() const noexcept = 0;
  // The properties its requirement takes.
  virtual std::vector<std::string> properties() const { return {}; }
  // Why `value` is not one that `property` (one of properties()) takes ("" if it is),
  // said after "connection 'NAME': ".
  virtual std::string refuse_value(const std::string& /*property*/,
                                   const std::string& /*value*/) const {
    return {};
  }
  // Why this build cannot deliver through it ("" if it can).
  virtual std::string unavailable() const { return {}; }
  // Whether its sinks are fed by their containers' channels, where filters
  // apply (Delivery::links_channels, and dds's readers).
  virtual bool feeds_channels() const noexcept { return true; }
  // What its connections must agree on across a plan, or null.
  virtual std::unique_ptr<DeliveryPlanRule> plan_rule() const { return nullptr; }
};

namespace detail {
template <>
NamedRegistry<DeliveryCheck>& registry_of<DeliveryCheck>();
}  // namespace detail

// The registered strategies' checks: find(name) (null if none), all() by
// name, names() ", "-separated for messages ("channel, dds, direct, zmq").
inline const detail::NamedRegistry<DeliveryCheck>& delivery_checks() {
  return detail::registry_of<DeliveryCheck>();
}

}  // namespace mwccm

// Registers a default-constructible mwccm::DeliveryCheck under its name() at start-up.
#define MWCCM_REGISTER_DELIVERY_CHECK(Check)                                \
  static const ::mwccm::detail::Registration<Check, ::mwccm::DeliveryCheck> \
      mwccm_delivery_check_registration_##Check
