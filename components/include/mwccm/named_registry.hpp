// Objects registered by name from static initialisers (delivery.hpp,
// delivery_check.hpp): each kind's registry is a function-local static
// (registry_of, defined once in components/src/registries.cpp), so
// registration order across files does not matter.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace mwccm::detail {

template <class Registered>
class NamedRegistry {
 public:
  void add(const Registered& item) {
    std::lock_guard lock(mutex_);
    by_name_[item.name()] = &item;
  }
  // The one of that name, or null.
  const Registered* find(const std::string& name) const noexcept {
    std::lock_guard lock(mutex_);
    const auto found = by_name_.find(name);
    return found == by_name_.end() ? nullptr : found->second;
  }
  // Every one, by name.
  std::vector<const Registered*> all() const {
    std::lock_guard lock(mutex_);
    std::vector<const Registered*> items;
    for (const auto& [name, item] : by_name_) items.push_back(item);
    return items;
  }
  // The names, ", "-separated, for messages.
  std::string names() const {
    std::string text;
    for (const Registered* item : all())
      text += (text.empty() ? "" : ", ") + std::string(item->name());
    return text;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, const Registered*> by_name_;
};

// The registry of every `Base`; specialised once per kind (registries.cpp).
template <class Base>
NamedRegistry<Base>& registry_of();

// Registers a default-constructible `Registered` among the `Base`s at start-up.
template <class Registered, class Base>
struct Registration {
  Registration() {
    static const Registered item;
    registry_of<Base>().add(item);
  }
};

}  // namespace mwccm::detail
