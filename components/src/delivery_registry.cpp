// The delivery strategies registered by name (delivery.hpp).
#include <mwccm/delivery.hpp>
#include <mwccm/named_registry.hpp>

namespace mwccm {
namespace {

detail::NamedRegistry<Delivery>& registry() {
  static detail::NamedRegistry<Delivery> instance;
  return instance;
}

}  // namespace

void detail::add_delivery(const Delivery& delivery) { registry().add(delivery); }
const Delivery* find_delivery(const std::string& name) noexcept { return registry().find(name); }
std::vector<const Delivery*> deliveries() { return registry().all(); }
std::string delivery_names() { return registry().names(); }

}  // namespace mwccm
