// DirectDelivery: one call per consumer on the pushing thread.
#include <mwccm/event_delivery.hpp>

namespace mwccm {

void DirectDelivery::deliver(const DeliveryTarget& target) {
  const std::size_t n = target.size();
  for (std::size_t i = 0; i < n; ++i) {
    try {
      target.push(i);
    } catch (const CORBA::Exception&) {
      failures_.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

DirectDelivery& direct_delivery() noexcept {
  static DirectDelivery shared;
  return shared;
}

}  // namespace mwccm
