// The plan checker's tests over plans/basic_sp.cdp: a fixture holding its
// model, which each test breaks in a copy, and what check_plan says of it.
#pragma once

#include <mwccm/deployment/plan_check.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <mwccm/deployment/plan_io.hpp>
#include <mwccm/deployment/plan_properties.hpp>
#include <mwccm/deployment/typed_value.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "plan_fixture.hpp"

namespace mwccm::deployment::testing {

class PlanCheck : public ::testing::Test {
 protected:
  PlanCheck() : plan_(read_cdp(plan_path("basic_sp.cdp"))), interfaces_(test_interfaces()) {}

  // The problems check_plan finds, one string each ("file:line: message").
  std::vector<std::string> problems(const CheckScope& scope = {}) {
    try {
      check_plan(plan_, interfaces_, scope);
      return {};
    } catch (const PlanError& error) {
      std::vector<std::string> texts;
      for (const auto& problem : error.problems()) texts.push_back(problem.to_string());
      return texts;
    }
  }
  // Exactly one problem, holding `part`, at the line of `where`.
  void expect_problem(const std::string& part, const SourceLocation& where) {
    const auto found = problems();
    ASSERT_EQ(found.size(), 1u) << ::testing::PrintToString(found);
    EXPECT_NE(found[0].find(part), std::string::npos) << found[0];
    EXPECT_EQ(found[0].rfind(where.to_string() + ": ", 0), 0u)
        << found[0] << " is not at " << where.to_string();
  }
  Instance& instance(const std::string& id) {
    for (auto& i : plan_.instances) {
      if (i.id == id) return i;
    }
    throw std::logic_error("no instance " + id);
  }
  Connection& connection(const std::string& name) {
    for (auto& c : plan_.connections) {
      if (c.name == name) return c;
    }
    throw std::logic_error("no connection " + name);
  }
  // A Test::Tuner instance, for the port kinds Basic SP does not have.
  void add_tuner() {
    plan_.implementations.push_back({"TunerImpl",
                                     "TunerImpl",
                                     {"BasicSPArtifact"},
                                     {{properties::kHomeEntrypoint,
                                       make_value(ValueKind::String, "mwccm_home_Test_TunerHome"),
                                       {}}},
                                     {},
                                     {}});
    plan_.instances.push_back({"Tuner", "tuner", "Avionics", "TunerImpl", {}, {"added", 1}});
  }
  Connection& add_connection(const std::string& name, Endpoint user, Endpoint provider) {
    plan_.connections.push_back({name, {user, provider}, {}, {}, {"added", 2}});
    return plan_.connections.back();
  }

  Plan plan_;
  InterfaceCatalog interfaces_;
};

// An endpoint of a connection a test adds.
inline Endpoint ep(const std::string& instance, const std::string& port, PortKind kind) {
  return {port, is_provider(kind), kind, instance, false, {"added", 3}};
}

}  // namespace mwccm::deployment::testing
