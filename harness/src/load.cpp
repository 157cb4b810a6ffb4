// --load: parsed and printed (load.hpp).
#include "mwbench/load.hpp"

#include <charconv>
#include <cmath>

#include "mwbench/options.hpp"

namespace mwbench {

namespace {

constexpr std::string_view kAllowed = "allowed: closed, constant:RATE, poisson:RATE";

std::string shown(std::string_view text) {
  return std::string(text.size() > 64 ? text.substr(0, 64) : text) +
         (text.size() > 64 ? "..." : "");
}

}  // namespace

Load parse_load(std::string_view text) {
  if (text == "closed") return {};
  const auto colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  Load load;
  if (kind == "constant") {
    load.kind = Load::Kind::constant;
  } else if (kind == "poisson") {
    load.kind = Load::Kind::poisson;
  } else {
    throw UsageError("--load " + shown(text) + ": unknown load (" + std::string(kAllowed) + ")");
  }
  const std::string_view rate =
      colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  double value = 0;
  const auto r = std::from_chars(rate.data(), rate.data() + rate.size(), value);
  if (rate.empty() || r.ec != std::errc() || r.ptr != rate.data() + rate.size() ||
      !std::isfinite(value) || !(value > 0)) {
    throw UsageError("--load " + shown(text) +
                     ": the rate must be a positive finite number of calls per second");
  }
  if (value < kMinRatePerS) {
    throw UsageError("--load " + shown(text) + ": the rate must be at least 0.001 calls per " +
                     "second (one call per 1000 s)");
  }
  load.rate_per_s = value;
  return load;
}

std::string to_string(const Load& load) {
  if (!load.open()) return "closed";
  char digits[32];
  const auto r = std::to_chars(digits, digits + sizeof digits, load.rate_per_s);
  return std::string(load.kind == Load::Kind::constant ? "constant:" : "poisson:") +
         std::string(digits, r.ptr);
}

}  // namespace mwbench
