// Endpoint texts of the form "scheme:k1=v1;k2=v2" (the DDS drivers'
// "dds:domain=17;ping=...;pong=..."), read field by field.
#pragma once

#include <string>
#include <string_view>

namespace mwbench::common {

// The value of `key=` in "k1=v1;k2=v2", or empty when there is none.
std::string endpoint_field(std::string_view text, std::string_view key);

}  // namespace mwbench::common
