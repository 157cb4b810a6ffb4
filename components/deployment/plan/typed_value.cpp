// Checking the text of typed values: the same rules for both plan formats.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mwccm/deployment/typed_value.hpp>
#include <mwccm/user_input.hpp>
#include <stdexcept>

namespace mwccm::deployment {
namespace {

template <class Integer>
std::string checked_integer(const std::string& text) {
  Integer value{};
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end) {
    throw std::invalid_argument(
        "an integer from " + std::to_string(std::numeric_limits<Integer>::min()) + " to " +
        std::to_string(std::numeric_limits<Integer>::max()) + ", not " + quote(text));
  }
  return std::to_string(value);
}

template <class Floating>
std::string checked_floating(const std::string& text) {
  Floating value{};
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || stop != end || !std::isfinite(value)) {
    throw std::invalid_argument("a finite number, not " + quote(text));
  }
  return text;
}

std::string checked_boolean(const std::string& text) {
  if (text == "true" || text == "1") return "true";
  if (text == "false" || text == "0") return "false";
  throw std::invalid_argument("true or false, not " + quote(text));
}

}  // namespace

TypedValue make_value(ValueKind kind, const std::string& text) {
  TypedValue value;
  value.kind = kind;
  switch (kind) {
    case ValueKind::Boolean:
      value.text = checked_boolean(text);
      break;
    case ValueKind::Char:
      if (text.size() != 1) throw std::invalid_argument("one character, not " + quote(text));
      value.text = text;
      break;
    case ValueKind::Octet:
      value.text = checked_integer<std::uint8_t>(text);
      break;
    case ValueKind::Short:
      value.text = checked_integer<std::int16_t>(text);
      break;
    case ValueKind::UShort:
      value.text = checked_integer<std::uint16_t>(text);
      break;
    case ValueKind::Long:
      value.text = checked_integer<std::int32_t>(text);
      break;
    case ValueKind::ULong:
      value.text = checked_integer<std::uint32_t>(text);
      break;
    case ValueKind::LongLong:
      value.text = checked_integer<std::int64_t>(text);
      break;
    case ValueKind::ULongLong:
      value.text = checked_integer<std::uint64_t>(text);
      break;
    case ValueKind::Float:
      value.text = checked_floating<float>(text);
      break;
    case ValueKind::Double:
      value.text = checked_floating<double>(text);
      break;
    case ValueKind::String:
      value.text = text;
      break;
    case ValueKind::Enum:
      throw std::invalid_argument("an enum value needs its type (make_enum_value)");
  }
  return value;
}

TypedValue make_enum_value(const std::string& type_id, std::vector<std::string> members,
                           const std::string& text) {
  bool known = false;
  std::string listed;
  for (const auto& member : members) {
    known = known || member == text;
    listed += (listed.empty() ? "" : ", ") + member;
  }
  if (!known) throw std::invalid_argument("one of " + listed + ", not " + quote(text));
  TypedValue value;
  value.kind = ValueKind::Enum;
  value.text = text;
  value.enum_type_id = type_id;
  value.enum_members = std::move(members);
  return value;
}

}  // namespace mwccm::deployment
