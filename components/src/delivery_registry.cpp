// The delivery strategies registered by name (delivery.hpp).
#include <map>
#include <mutex>
#include <mwccm/delivery.hpp>

namespace mwccm {
namespace {

// A function-local static: strategies register from static initialisers.
struct Registry {
  std::mutex mutex;
  std::map<std::string, const Delivery*> by_name;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

namespace detail {
void add_delivery(const Delivery& delivery) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.by_name[delivery.name()] = &delivery;
}
}  // namespace detail

const Delivery* find_delivery(const std::string& name) noexcept {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto found = r.by_name.find(name);
  return found == r.by_name.end() ? nullptr : found->second;
}

std::vector<const Delivery*> deliveries() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const Delivery*> all;
  for (const auto& [name, delivery] : r.by_name) all.push_back(delivery);
  return all;
}

std::string delivery_names() {
  std::string names;
  for (const Delivery* delivery : deliveries())
    names += (names.empty() ? "" : ", ") + std::string(delivery->name());
  return names;
}

}  // namespace mwccm
