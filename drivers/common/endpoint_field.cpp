// One field of an endpoint text.
#include "common/endpoint_field.hpp"

#include <algorithm>

namespace mwbench::common {

std::string endpoint_field(std::string_view text, std::string_view key) {
  const std::string needle = std::string(key) + "=";
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find(';', pos), text.size());
    const std::string_view item = text.substr(pos, end - pos);
    if (item.starts_with(needle)) return std::string(item.substr(needle.size()));
    pos = end + 1;
  }
  return {};
}

}  // namespace mwbench::common
