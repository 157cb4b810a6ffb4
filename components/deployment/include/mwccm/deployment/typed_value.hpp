// Typed values of plans, as both formats write them: checked text of a kind
// (an integer in its range, a boolean, one character, an enumerator).
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>

namespace mwccm::deployment {

// A value of `kind` from the text a plan gives, checked and made canonical
// ("1" for a boolean becomes "true"); throws std::invalid_argument saying what
// was expected ("an integer from -32768 to 32767"). Not for enums.
TypedValue make_value(ValueKind kind, const std::string& text);

// An enumerator of the enum `type_id` with `members`; throws
// std::invalid_argument when `text` is not one of them.
TypedValue make_enum_value(const std::string& type_id, std::vector<std::string> members,
                           const std::string& text);

}  // namespace mwccm::deployment
