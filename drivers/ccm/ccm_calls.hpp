// The measured calls of the CCM driver, once the ends are connected.
//
// A plain client calls the stub of its Test::RoundTrip reference (the
// omniorb driver's calls, reused: omniorb_calls.hpp). A component client's
// measuring thread calls its Caller executor, which calls through the
// `peer` receptacle or pushes through its event sources: the path a
// component's own code takes. Payloads and events are built before the
// loop; an event is one object whose number changes from call to call.
#pragma once

#include "RoundTrip.hh"
#include "ccm_executors.hpp"
#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"

namespace ccm_driver {

// roundtrip, ping, octets from a plain client to `target`.
void measure_object_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                          Test::RoundTrip_ptr target);

// roundtrip, ping, octets, event_value, event_struct from the Caller.
void measure_component_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                             CallerExecutor& caller);

}  // namespace ccm_driver
