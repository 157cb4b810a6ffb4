// The delivery strategies' plan checks registered by name (delivery_check.hpp).
#include <mwccm/delivery_check.hpp>
#include <mwccm/named_registry.hpp>

namespace mwccm {
namespace {

detail::NamedRegistry<DeliveryCheck>& registry() {
  static detail::NamedRegistry<DeliveryCheck> instance;
  return instance;
}

}  // namespace

void detail::add_delivery_check(const DeliveryCheck& check) { registry().add(check); }
const DeliveryCheck* find_delivery_check(const std::string& name) noexcept {
  return registry().find(name);
}
std::vector<const DeliveryCheck*> delivery_checks() { return registry().all(); }
std::string delivery_check_names() { return registry().names(); }

}  // namespace mwccm
