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

void write_result(std::ostream& out, const nlohmann::json& header,
                  std::span<const std::uint64_t> samples) {
  const auto count = header.value("sample_count", std::uint64_t{0});
  if (count != samples.size()) {
    throw std::logic_error("result header says sample_count " + std::to_string(count) + " but " +
                           std::to_string(samples.size()) + " samples were given");
  }
  out << "mwbench-result " << kContractVersion << '\n' << header.dump() << '\n';

  std::string text;
  text.reserve(samples.size() * 8);
  char digits[24];
  for (const std::uint64_t s : samples) {
    const auto r = std::to_chars(digits, digits + sizeof digits, s);
    text.append(digits, r.ptr);
    text.push_back('\n');
  }
  out << text << "end\n";
}

void write_result_file(const std::string& path, const nlohmann::json& header,
                       std::span<const std::uint64_t> samples) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw std::runtime_error("cannot write result file '" + tmp + "': " + std::strerror(errno));
    }
    write_result(out, header, samples);
    out.flush();
    if (!out) throw std::runtime_error("cannot write result file '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path +
                             "': " + std::strerror(errno));
  }
}

}  // namespace mwbench
