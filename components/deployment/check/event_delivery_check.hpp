// The check of how a plan delivers events (docs/events.md; plan_check.cpp
// runs it with the rest): mwccm.EventDelivery on event connections, its
// gateway, and every consumer's mwccm.EventFilter.<sink>.
#pragma once

#include <functional>
#include <mwccm/deployment/component_interface.hpp>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <vector>

namespace mwccm::deployment {

// The interface of a component instance, or null when it cannot be known
// (its implementation is already reported).
using InterfaceOf = std::function<const ComponentInterface*(const Instance&)>;

void check_event_delivery(const PlanIndex& plan, const InterfaceOf& interface_of,
                          std::vector<PlanProblem>& problems);

}  // namespace mwccm::deployment
