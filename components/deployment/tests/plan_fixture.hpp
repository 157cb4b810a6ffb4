// What the deployment library's tests share: the plans and interface
// descriptions of plans/, a scratch directory for plans a test writes, and a
// canonical description of what a plan means (to compare two plans whose ids
// or element order differ).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <string>

namespace mwccm::deployment::testing {

std::string plans_dir();
std::string plan_path(const std::string& name);  // plans/<name>
InterfaceCatalog test_interfaces();              // plans/interfaces
std::string read_text(const std::string& file);

// The line of the first occurrence of `text` in `file` (1-based; 0 if absent).
int line_of(const std::string& file, const std::string& text);

// A scratch directory, removed with what it holds after each test.
class ScratchTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Writes `text` to <scratch>/<name>; returns the path.
  std::string write(const std::string& name, const std::string& text) const;
  // plans/<fixture> with `from` replaced by `to` (which must occur), written as <name>.
  std::string mutate(const std::string& fixture, const std::string& name, const std::string& from,
                     const std::string& to) const;
  std::string scratch_;
};

// The one problem `step` (a read or a check) refuses with; a test failure,
// and an empty problem, if it refuses with several or none.
PlanProblem only_problem(const std::function<void()>& step);
// `read` refuses `file` with one problem, at `line` of that file, whose
// message holds `part`.
void expect_refusal(const std::function<void()>& read, const std::string& file, int line,
                    const std::string& part);

// A reader's test (read_cdp, read_config): expect_error(file, line, part)
// when `Read` refuses `file` with one problem at `line` holding `part`.
template <Plan (*Read)(const std::string&)>
class ReaderTest : public ScratchTest {
 protected:
  void expect_error(const std::string& file, int line, const std::string& part) {
    expect_refusal([&] { Read(file); }, file, line, part);
  }
};

// A .config plan of `instances` Airframes (plans/interfaces) in one chain,
// each one's receptacle `gps` using the next one's facet `position`, 100 to
// a component server, the servers on two nodes: a plan of any size.
std::string chain_plan(std::size_t instances);

// One line per fact: label, UUID, info properties, instances (name, node,
// entry point, artifact location, configuration), connections (their ends
// and requirements) and processes, sorted.
std::string meaning(const Plan& plan);

}  // namespace mwccm::deployment::testing
