// Named series: their values and their checks (named_series.hpp).
#include "mwbench/named_series.hpp"

#include <stdexcept>

namespace mwbench {

NamedSeries::NamedSeries(std::string name, std::string part_of, std::uint64_t capacity)
    : name_(std::move(name)), part_of_(std::move(part_of)) {
  values_.assign(capacity, 0);  // writes every element: no page fault in the loop
}

void NamedSeries::check_complete(std::uint64_t samples) const {
  if (overflowed_ || size_ != samples) {
    throw std::runtime_error(
        "named series '" + name_ + "' holds " +
        (overflowed_ ? "more than " + std::to_string(size_) : std::to_string(size_)) +
        " values for " + std::to_string(samples) +
        " samples: the call must record it once per call");
  }
}

bool valid_series_name(const std::string& name) noexcept {
  if (name.empty() || name.size() > 64 || name[0] < 'a' || name[0] > 'z') return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace mwbench
