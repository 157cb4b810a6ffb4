// Writing the timings file (timings_file.hpp).
#include <filesystem>
#include <fstream>
#include <map>
#include <mwccm/deployment/timings_file.hpp>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mwccm::deployment {

void write_timings_file(const std::string& file, const MwccmDeployment::Timings& timings) {
  nlohmann::json steps = nlohmann::json::array();
  std::map<std::string, std::uint64_t> totals;
  for (CORBA::ULong i = 0; i < timings.length(); ++i) {
    const auto& t = timings[i];
    steps.push_back({{"step", t.step.in()},
                     {"subject", t.subject.in()},
                     {"process", t.process.in()},
                     {"begin_ns", t.begin_ns},
                     {"end_ns", t.end_ns}});
    totals[t.step.in()] += t.end_ns - t.begin_ns;
  }
  const std::string temporary = file + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    // Names are UTF-8 (the plan's reader checks them), but a file name need
    // not be: such a byte is written as U+FFFD rather than failing the file.
    out << nlohmann::json{{"steps", steps}, {"total_ns_per_step", totals}}.dump(
               2, ' ', false, nlohmann::json::error_handler_t::replace)
        << '\n';
    if (!out) throw std::runtime_error("cannot write '" + temporary + "'");
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
  if (error) throw std::runtime_error("cannot write '" + file + "': " + error.message());
}

}  // namespace mwccm::deployment
