// Typed values of plans, as both formats write them: checked text of a kind
// (an integer in its range, a boolean, one character, an enumerator).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mwccm/deployment/plan.hpp>
#include <string>
#include <tuple>
#include <utility>

namespace mwccm::deployment {

// A value of `kind` from the text a plan gives, checked and made canonical
// ("1" for a boolean becomes "true"); throws std::invalid_argument saying what
// was expected ("an integer from -32768 to 32767"). Not for enums.
TypedValue make_value(ValueKind kind, const std::string& text);

// An enumerator of the enum `type_id` with `members`; throws
// std::invalid_argument when `text` is not one of them.
TypedValue make_enum_value(const std::string& type_id, std::vector<std::string> members,
                           const std::string& text);

// The C++ type that holds the values of each number kind, in the order of
// ValueKind from Octet to Double.
using NumberTypes = std::tuple<std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                               std::uint32_t, std::int64_t, std::uint64_t, float, double>;
static_assert(static_cast<std::size_t>(ValueKind::Double) -
                  static_cast<std::size_t>(ValueKind::Octet) + 1 ==
              std::tuple_size_v<NumberTypes>);

// For a number kind, calls `visit(T{})` with its type from NumberTypes
// (std::int16_t for Short, ...) and returns true; for the other kinds
// returns false. The one place kinds meet C++ types: checking a value's
// text, and making an Any of it or reading one, ask here.
template <class Visit>
bool visit_number_type(ValueKind kind, Visit&& visit) {
  // A kind before Octet wraps round to an index past the end: no type.
  const auto index = static_cast<std::size_t>(kind) - static_cast<std::size_t>(ValueKind::Octet);
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return ((index == I ? (visit(std::tuple_element_t<I, NumberTypes>{}), true) : false) || ...);
  }
  (std::make_index_sequence<std::tuple_size_v<NumberTypes>>{});
}

}  // namespace mwccm::deployment
