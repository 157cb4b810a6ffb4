// The result-file writer. Samples go through std::to_chars into one buffer:
// a million samples must not take longer to write than to measure.
#include "mwbench/result_file.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace mwbench {

namespace {

void append_values(std::string& text, std::span<const std::uint64_t> values) {
  char digits[24];
  for (const std::uint64_t value : values) {
    const auto r = std::to_chars(digits, digits + sizeof digits, value);
    text.append(digits, r.ptr);
    text.push_back('\n');
  }
}

// The header's "named_series" must announce exactly `named`, in order.
void check_named(const nlohmann::json& header, std::span<const NamedValues> named) {
  const nlohmann::json none = nlohmann::json::array();
  const nlohmann::json& announced = header.contains("named_series") ? header["named_series"] : none;
  bool same = announced.size() == named.size();
  for (std::size_t i = 0; same && i < named.size(); ++i) {
    same = announced[i].value("name", "") == named[i].name &&
           announced[i].value("count", std::uint64_t{0}) == named[i].values.size();
  }
  if (!same) {
    throw std::logic_error("result header's named_series " + announced.dump() +
                           " does not announce the " + std::to_string(named.size()) +
                           " named series given");
  }
}

}  // namespace

void write_result(std::ostream& out, const nlohmann::json& header,
                  std::span<const std::uint64_t> samples, std::span<const NamedValues> named) {
  const auto count = header.value("sample_count", std::uint64_t{0});
  if (count != samples.size()) {
    throw std::logic_error("result header says sample_count " + std::to_string(count) + " but " +
                           std::to_string(samples.size()) + " samples were given");
  }
  check_named(header, named);
  out << "mwbench-result " << kContractVersion << '\n' << header.dump() << '\n';

  std::string text;
  text.reserve(samples.size() * 8);
  append_values(text, samples);
  for (const NamedValues& series : named) {
    text.append("series ").append(series.name).push_back('\n');
    append_values(text, series.values);
  }
  out << text << "end\n";
}

void write_result_file(const std::string& path, const nlohmann::json& header,
                       std::span<const std::uint64_t> samples, std::span<const NamedValues> named) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw std::runtime_error("cannot write result file '" + tmp + "': " + std::strerror(errno));
    }
    write_result(out, header, samples, named);
    out.flush();
    if (!out) throw std::runtime_error("cannot write result file '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path +
                             "': " + std::strerror(errno));
  }
}

}  // namespace mwbench
