// What is wrong with a plan. A reader stops at the first problem (the rest
// of a malformed file means little); the checker collects every problem it
// finds, so that one run names them all. Each problem says where, which
// element, and what was expected:
//   plan.cdp:42: connection 'tick': instance 'gps' has no port 'tock' (GPS has: ...)
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct PlanProblem {
  SourceLocation where;
  std::string message;            // names the element, instance or port, and what was expected
  std::string to_string() const;  // "file:line: message"
};

class PlanError : public std::runtime_error {
 public:
  explicit PlanError(std::vector<PlanProblem> problems);
  PlanError(SourceLocation where, std::string message);
  const std::vector<PlanProblem>& problems() const noexcept { return problems_; }

 private:
  std::vector<PlanProblem> problems_;
};

}  // namespace mwccm::deployment
