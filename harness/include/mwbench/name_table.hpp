// An enum's values and their names, written down once: the table a driver
// reads both ways, from an option's text to the value (a UsageError listing
// the allowed values for any other) and from the value to its name.
//
//   constexpr mwbench::NameTable<Wait, 2> kWaits{{{{Wait::block, "block"},
//                                                  {Wait::spin, "spin"}}}};
//   Wait wait = kWaits.parse(text, "--option wait=");
//   const char* name = kWaits.name(wait);
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "mwbench/options.hpp"

namespace mwbench {

template <class Enum, std::size_t N>
struct NameTable {
  std::array<std::pair<Enum, const char*>, N> entries;

  // "?" for a value the table lacks.
  constexpr const char* name(Enum value) const noexcept {
    for (const auto& [entry, text] : entries) {
      if (entry == value) return text;
    }
    return "?";
  }

  // The value named `text`; otherwise throws UsageError("<what><text>:
  // allowed values: a, b, c").
  Enum parse(std::string_view text, std::string_view what) const {
    std::string allowed;
    for (const auto& [entry, name] : entries) {
      if (text == name) return entry;
      allowed += (allowed.empty() ? "" : ", ") + std::string(name);
    }
    throw UsageError(std::string(what) + std::string(text) + ": allowed values: " + allowed);
  }
};

}  // namespace mwbench
