// Attribute overrides (attribute_override.hpp).
#include <mwccm/deployment/attribute_override.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <stdexcept>

namespace mwccm::deployment {

AttributeOverride parse_override(const std::string& text) {
  const auto equals = text.find('=');
  const auto dot = equals == std::string::npos ? std::string::npos : text.rfind('.', equals);
  if (dot == std::string::npos || dot == 0 || dot + 1 == equals) {
    throw std::invalid_argument("--set '" + text + "' is not INSTANCE.ATTRIBUTE=VALUE");
  }
  return {text.substr(0, dot), text.substr(dot + 1, equals - dot - 1), text.substr(equals + 1)};
}

TypedValue overriding_value(const AttributeOverride& override_, const TypedValue& like) {
  try {
    if (like.kind == ValueKind::Enum)
      return make_enum_value(like.enum_type_id, like.enum_members, override_.value);
    return make_value(like.kind, override_.value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--set " + override_.instance + "." + override_.attribute + "=" +
                                override_.value + ": " + e.what());
  }
}

void apply_overrides(Plan& plan, const std::vector<AttributeOverride>& overrides) {
  for (const auto& override_ : overrides) {
    Property* found = nullptr;
    bool instance_found = false;
    for (auto& instance : plan.instances) {
      if (instance.name != override_.instance) continue;
      instance_found = true;
      for (auto& property : instance.config_properties) {
        if (property.name == override_.attribute) found = &property;
      }
    }
    if (found == nullptr) {
      throw std::invalid_argument(
          "--set " + override_.instance + "." + override_.attribute + ": " +
          (instance_found ? "the plan sets no attribute '" + override_.attribute + "' of '" +
                                override_.instance + "' (only what it sets can be overridden)"
                          : "the plan has no instance '" + override_.instance + "'"));
    }
    found->value = overriding_value(override_, found->value);
  }
}

}  // namespace mwccm::deployment
