// Checking a plan completely before anything is created. Every problem
// found is reported at once (one PlanError holding them all, each naming the
// file, line, element, instance or port, and what was expected):
//   - duplicate ids and names; references (xmi:idref) that resolve to nothing;
//   - an implementation without its home entry point or artifact, or whose
//     entry point no component interface description (.ccd) names;
//   - a configProperty that is not a writable attribute of the component, or
//     of another type;
//   - a connection whose ports do not exist, are of another kind, or do not
//     fit (a receptacle whose interface the facet does not support; a source
//     and a sink of different event types); a simplex receptacle or an
//     emitter connected twice; a plain C++ connection across processes;
//   - contradictory locality constraints (localities.hpp);
//   - with a node map: an instance on a node the map does not name;
//   - with trusted directories: an artifact that is not found in them, leaves
//     them, or does not export the entry point.
#pragma once

#include <mwccm/deployment/artifacts.hpp>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/plan.hpp>
#include <set>
#include <string>

namespace mwccm::deployment {

// What the .config format leaves to the component interfaces: the exact
// kind of a receptacle or event source endpoint, and an enum value's type.
// Call before check_plan; a no-op for a .cdp plan.
void complete_plan(Plan& plan, const InterfaceCatalog& interfaces);

// What a check may also look at, where the caller knows it.
struct CheckScope {
  // The directories artifacts come from: each artifact is then found there
  // and its home entry point checked. Null: the files are not looked at
  // (the node looks when it prepares its part of the plan).
  const TrustedDirectories* artifacts = nullptr;
  // The nodes there are (a node map's); null: any node name is started here.
  const std::set<std::string>* nodes = nullptr;
};

// Throws PlanError listing every problem; returns when there is none.
void check_plan(const Plan& plan, const InterfaceCatalog& interfaces, const CheckScope& scope = {});

}  // namespace mwccm::deployment
