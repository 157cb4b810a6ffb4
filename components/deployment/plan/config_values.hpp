// The values of DnCX11's .config format, both ways: "type:value" with its
// type names (int32, uint64, string, ...), and literals without a type, read
// as DnCX11 reads them. Internal to the reader and the writer.
#pragma once

#include <mwccm/deployment/typed_value.hpp>
#include <optional>
#include <string>

namespace mwccm::deployment::detail {

// The kind a type name stands for; nothing if it names none.
std::optional<ValueKind> config_value_kind(const std::string& type_name);
// The type name of a kind ("int32" for Long).
const char* config_type_name(ValueKind kind);
// Every type name, for a message: "char, octet, bool, ...".
std::string config_type_names();

// A number as make_value reads it: "0x1F" → "31"; other text unchanged.
std::string decimal(const std::string& text);

// A literal without a type: a boolean; a decimal integer as int64 (uint64
// when larger); a hexadecimal one as uint64; a number with a fraction as
// double. (So an unsigned long attribute is written uint32:20, as for
// DnCX11.) std::invalid_argument for anything else.
TypedValue untyped_config_value(const std::string& text);

// A value as a .config file writes it: "int32:20", "string" in quotes,
// 'c' for a character.
std::string config_value_text(const TypedValue& value);
// `text` in `quote`s, with the quote and '\' escaped.
std::string config_literal(const std::string& text, char quote = '"');

}  // namespace mwccm::deployment::detail
