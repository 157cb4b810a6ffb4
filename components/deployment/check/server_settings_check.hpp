// The check of a component server instance's configProperties (plan_check.cpp
// runs it with the rest): its real-time settings and where its channels
// receive (docs/deployment.md sections 6 and 10).
#pragma once

#include <mwccm/deployment/plan.hpp>
#include <mwccm/deployment/plan_error.hpp>
#include <vector>

namespace mwccm::deployment {

// Adds a problem for every configProperty of `server` that mwccm does not
// know or whose value it refuses; among them a wildcard address (0.0.0.0,
// ::, none) where its channels receive, unless mwccm.Channel.AllowWildcard
// says the plan means it: servers bind to loopback unless told otherwise.
void check_server_settings(const Instance& server, std::vector<PlanProblem>& problems);

}  // namespace mwccm::deployment
