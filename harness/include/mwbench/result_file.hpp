// Writer of the result file (docs/driver-contract.md section 4).
//
// The format is pinned byte for byte by contract/vectors/: line 1 the magic
// word and version, line 2 the header as nlohmann::json::dump() prints it
// (keys sorted, no spaces), one sample per line, each named series as a
// `series NAME` line and its values, then `end`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace mwbench {

inline constexpr int kContractVersion = 1;

// One named series' values, in the order of the header's "named_series".
struct NamedValues {
  std::string_view name;
  std::span<const std::uint64_t> values;
};

// Writes the whole file to `out`. Throws std::logic_error if the header's
// sample_count differs from samples.size(), or its "named_series" (names and
// counts) from `named`: such a file would not read back.
void write_result(std::ostream& out, const nlohmann::json& header,
                  std::span<const std::uint64_t> samples, std::span<const NamedValues> named = {});

// Writes to `path` through `path.tmp` and a rename, so a reader never sees a
// half-written file. Throws std::runtime_error naming the path on failure.
void write_result_file(const std::string& path, const nlohmann::json& header,
                       std::span<const std::uint64_t> samples,
                       std::span<const NamedValues> named = {});

}  // namespace mwbench
