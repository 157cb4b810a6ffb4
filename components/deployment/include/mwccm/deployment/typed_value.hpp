// Typed values of plans, as both formats write them: checked text of a kind
// (an integer in its range, a boolean, one character, an enumerator).
#pragma once

#include <cstdint>
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

// For a number kind (Octet to Double), calls `visit(T{})` with the C++ type
// that holds its values (std::int16_t for Short, ...) and returns true; for
// the others returns false. The one place kinds meet C++ types: checking a
// value's text, and making an Any of it, ask here.
template <class Visit>
bool visit_number_type(ValueKind kind, Visit&& visit) {
  switch (kind) {
    case ValueKind::Octet:
      visit(std::uint8_t{});
      return true;
    case ValueKind::Short:
      visit(std::int16_t{});
      return true;
    case ValueKind::UShort:
      visit(std::uint16_t{});
      return true;
    case ValueKind::Long:
      visit(std::int32_t{});
      return true;
    case ValueKind::ULong:
      visit(std::uint32_t{});
      return true;
    case ValueKind::LongLong:
      visit(std::int64_t{});
      return true;
    case ValueKind::ULongLong:
      visit(std::uint64_t{});
      return true;
    case ValueKind::Float:
      visit(float{});
      return true;
    case ValueKind::Double:
      visit(double{});
      return true;
    default:
      return false;
  }
}

}  // namespace mwccm::deployment
