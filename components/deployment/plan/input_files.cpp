// Reading the deployment tools' input files (input_files.hpp).
#include <mwccm/deployment/input_files.hpp>
#include <mwccm/deployment/plan_error.hpp>

namespace mwccm::deployment {

std::string read_input_file(const std::string& file, const FileKind& kind) {
  try {
    return read_text_file(file, kind);
  } catch (const FileRefused& refused) {
    throw PlanError({refused.file(), refused.line()}, refused.message());
  }
}

}  // namespace mwccm::deployment
