// The payload every driver's octets request carries: byte i is i mod 251,
// as rawtcp's (drivers/rawtcp/rawtcp_protocol.hpp) and the others'.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mwbench::common {

inline std::uint8_t pattern_byte(std::size_t i) noexcept {
  return static_cast<std::uint8_t>(i % 251);
}

}  // namespace mwbench::common
