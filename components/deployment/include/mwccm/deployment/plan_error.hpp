// What is wrong with a plan. A reader stops at the first problem (the rest
// of a malformed file means little); the checker collects every problem it
// finds, so that one run names them all. Each problem says where, which
// element, and what was expected:
//   plan.cdp:42: connection 'tick': instance 'gps' has no port 'tock' (GPS has: ...)
// A name or value of the plan is quoted with mwccm::quote (user_input.hpp),
// which keeps it short: no plan makes a long error line.
#pragma once

#include <iostream>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/user_input.hpp>
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

// A tool's work, run: its exit status; 2 once a PlanError's problems (one a
// line) or another std::exception's message ("PROGRAM: ...") are on stderr.
template <class Work>
int run_or_refuse(const char* program, Work&& work) {
  try {
    return work();
  } catch (const PlanError& error) {
    for (const auto& problem : error.problems()) std::cerr << problem.to_string() << '\n';
  } catch (const std::exception& error) {
    std::cerr << program << ": " << error.what() << '\n';
  }
  return 2;
}

// "'a', 'b', 'c' and 7 more": names a problem lists, quoted, the first ten
// only (a node map may name thousands).
template <class Names>
std::string some_of(const Names& names) {
  constexpr std::size_t kListed = 10;
  std::string text;
  std::size_t listed = 0;
  for (const std::string& name : names) {
    if (listed++ == kListed)
      return text + " and " + std::to_string(names.size() - kListed) + " more";
    text += (text.empty() ? "" : ", ") + quote(name);
  }
  return text;
}

}  // namespace mwccm::deployment
