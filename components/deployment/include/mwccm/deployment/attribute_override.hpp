// Overriding an attribute value a plan sets, at launch: `--set
// INSTANCE.ATTRIBUTE=VALUE` of mwccm-deploy and of a compiled plan's
// program (docs/deployment.md section 6), so that one plan, compiled or
// not, runs at another rate or logs elsewhere. Only an attribute the plan
// sets can be overridden: its kind is then known, and the value is checked
// against it as the plan's own would be.
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct AttributeOverride {
  std::string instance;
  std::string attribute;
  std::string value;
};

// "gps.rate=20" → {"gps", "rate", "20"}; std::invalid_argument naming the text.
AttributeOverride parse_override(const std::string& text);

// `value` as a value of the kind (and enum type) of `like`; std::invalid_argument
// naming the override and what was expected.
TypedValue overriding_value(const AttributeOverride& override_, const TypedValue& like);

// Applies each override to the plan's configProperty; std::invalid_argument
// for an instance, or an attribute of it, the plan does not set.
void apply_overrides(Plan& plan, const std::vector<AttributeOverride>& overrides);

}  // namespace mwccm::deployment
