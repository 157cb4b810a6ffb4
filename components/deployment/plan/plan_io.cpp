// Reading a plan in the format its suffix names.
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>

namespace mwccm::deployment {

Plan read_plan(const std::string& file) {
  const auto dot = file.rfind('.');
  const std::string suffix = dot == std::string::npos ? "" : file.substr(dot);
  if (suffix == ".cdp" || suffix == ".xml") return read_cdp(file);
  if (suffix == ".config") return read_config(file);
  throw PlanError({file, 0}, "a plan is a .cdp (D&C XML) or a .config (DnCX11) file");
}

}  // namespace mwccm::deployment
