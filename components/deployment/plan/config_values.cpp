// The .config format's values (config_values.hpp): one table of type names
// for the reader and the writer.
#include "config_values.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <mwccm/user_input.hpp>
#include <stdexcept>
#include <vector>

namespace mwccm::deployment::detail {
namespace {

// The type name of each ValueKind, in the enum's order (plan.hpp).
constexpr std::array<const char*, 13> kTypeNames{"bool",   "char",   "octet", "int16",  "uint16",
                                                 "int32",  "uint32", "int64", "uint64", "float",
                                                 "double", "string", "enum"};
static_assert(static_cast<std::size_t>(ValueKind::Enum) + 1 == kTypeNames.size());

}  // namespace

std::optional<ValueKind> config_value_kind(const std::string& type_name) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    if (type_name == kTypeNames[i]) return static_cast<ValueKind>(i);
  return std::nullopt;
}

const char* config_type_name(ValueKind kind) {
  return kTypeNames.at(static_cast<std::size_t>(kind));
}

std::string config_type_names() {
  std::string names;
  for (const char* name : kTypeNames) names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

std::string decimal(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  if (digits.size() < 3 || digits[0] != '0' || (digits[1] != 'x' && digits[1] != 'X')) return text;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(digits.data() + 2, digits.data() + digits.size(), value, 16);
  if (error != std::errc{} || end != digits.data() + digits.size()) return text;
  return (negative ? "-" : "") + std::to_string(value);
}

TypedValue untyped_config_value(const std::string& text) {
  if (text == "true" || text == "false") return make_value(ValueKind::Boolean, text);
  const bool hexadecimal =
      text.find("0x") != std::string::npos || text.find("0X") != std::string::npos;
  const std::string number = decimal(text);
  const std::vector<ValueKind> kinds =
      hexadecimal
          ? std::vector<ValueKind>{ValueKind::ULongLong}
          : std::vector<ValueKind>{ValueKind::LongLong, ValueKind::ULongLong, ValueKind::Double};
  for (ValueKind kind : kinds) {
    try {
      return make_value(kind, number);
    } catch (const std::invalid_argument&) {
    }
  }
  throw std::invalid_argument("a number, true, false, \"string\", 'c' or type:value, not " +
                              mwccm::quote(text));
}

std::string config_literal(const std::string& text, char quote) {
  std::string result(1, quote);
  for (char c : text) {
    if (c == quote || c == '\\') result += '\\';
    result += c;
  }
  return result + quote;
}

std::string config_value_text(const TypedValue& value) {
  if (value.kind == ValueKind::String) return config_literal(value.text);
  if (value.kind == ValueKind::Char) return "char:" + config_literal(value.text, '\'');
  return config_type_name(value.kind) + (":" + value.text);
}

}  // namespace mwccm::deployment::detail
