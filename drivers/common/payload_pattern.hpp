// The payload every driver's octets request carries: byte i is i mod 251,
// as rawtcp's (drivers/rawtcp/rawtcp_protocol.hpp) and the others'; and the
// check of it that --option verify=1 asks of the receiving side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mwbench::common {

inline std::uint8_t pattern_byte(std::size_t i) noexcept {
  return static_cast<std::uint8_t>(i % 251);
}

// verify=1: whether a payload received is the pattern of the size sent, and,
// if not, where it is not.
class PayloadCheck {
 public:
  PayloadCheck(std::size_t expected_bytes, bool verify) noexcept
      : expected_bytes_(expected_bytes), verify_(verify) {}

  // True without verify=1.
  bool intact(const std::uint8_t* payload, std::size_t length) const noexcept {
    return !verify_ || (length == expected_bytes_ && first_bad_byte(payload, length) == length);
  }

  // "payload mismatch at byte 7 of 64 (expected 64 bytes; verify=1)"
  std::string mismatch(const std::uint8_t* payload, std::size_t length) const {
    return "payload mismatch at byte " + std::to_string(first_bad_byte(payload, length)) + " of " +
           std::to_string(length) + " (expected " + std::to_string(expected_bytes_) +
           " bytes; verify=1)";
  }

 private:
  static std::size_t first_bad_byte(const std::uint8_t* payload, std::size_t length) noexcept {
    std::size_t bad = 0;
    while (bad < length && payload[bad] == pattern_byte(bad)) ++bad;
    return bad;
  }

  std::size_t expected_bytes_;
  bool verify_;
};

}  // namespace mwbench::common
