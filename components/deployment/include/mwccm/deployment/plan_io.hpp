// Reading and writing plans in both formats. The format follows the file's
// suffix: ".cdp" (or ".xml") is the OMG D&C XML, ".config" is DnCX11's
// terse line format. A reader checks the syntax and the values; whether the
// plan makes sense (names resolve, ports exist and match) is plan_check's.
// Every error is a PlanError naming the file, the line and the element.
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>

namespace mwccm::deployment {

Plan read_plan(const std::string& file);  // by suffix
Plan read_cdp(const std::string& file);
Plan read_config(const std::string& file);

// Text of the plan in each format; converting a plan and reading it back
// gives the same model (ids and element order kept; locations aside).
std::string write_cdp(const Plan& plan);
std::string write_config(const Plan& plan);

}  // namespace mwccm::deployment
