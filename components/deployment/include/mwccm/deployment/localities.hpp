// Which component server processes a plan makes: the plan's
// localityConstraints, per node. Instances in a SameProcess constraint share
// a process; an instance in none shares the node's default process unless a
// DifferentProcess constraint names it, which gives it a process of its own.
// A component server instance (mwccm.ImplementationType =
// mwccm.ComponentServer) configures the process it is constrained to.
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

struct Locality {
  std::string node;
  std::string name;  // unique in the plan: the component server instance's name, or "<node>.<n>"
  std::vector<const Instance*> components;  // in plan order
  const Instance* server = nullptr;         // the process's configuration, if the plan gives one
};

// Processes in plan order of their first instance. PlanError with every
// contradiction: SameProcess over instances on different nodes,
// DifferentProcess over instances a SameProcess joins, a component server
// instance shared by two processes or with no component.
std::vector<Locality> split_by_locality(const Plan& plan);

}  // namespace mwccm::deployment
