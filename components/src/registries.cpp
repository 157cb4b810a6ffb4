// The registries of what registers by name (named_registry.hpp), one per
// kind, in the ORB-free library both libmwccm and the plan check link, so
// that each kind has one registry whichever library registers into it.
#include <mwccm/named_registry.hpp>

namespace mwccm {
class Delivery;       // delivery.hpp
class DeliveryCheck;  // delivery_check.hpp

namespace detail {

template <>
NamedRegistry<Delivery>& registry_of<Delivery>() {
  static NamedRegistry<Delivery> registry;
  return registry;
}

template <>
NamedRegistry<DeliveryCheck>& registry_of<DeliveryCheck>() {
  static NamedRegistry<DeliveryCheck> registry;
  return registry;
}

}  // namespace detail
}  // namespace mwccm
