// Basic SP's latency from tick to display, as the HUD records it: the
// application times each tick itself (its CLOCK_MONOTONIC time travels with
// the tick and the positions), so these are samples the driver reports
// rather than calls the harness times (Measurement::run_reported).
#pragma once

#include <omniORB4/CORBA.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "deploy_scenario.hpp"

namespace deploy {

// Runs the scenario at its rate until the HUD has displayed `updates` ticks
// (or `stopped()` says to stop, or none is displayed for `stall`: then
// std::runtime_error after the teardown), tears it down, and returns each update's
// latency in ns, in order: a plan assembled statically or dynamically with
// rate_gen.hertz and hud.log_file set at launch, or the plain chain.
// std::runtime_error naming what failed.
std::vector<std::uint64_t> tick_to_display(CORBA::ORB_ptr orb, Scenario scenario,
                                           const std::string& scratch, std::uint64_t updates,
                                           std::chrono::duration<double> stall,
                                           const std::function<bool()>& stopped);

}  // namespace deploy
