// The measured calls of the CCM driver, once the ends are connected.
//
// A plain client calls the stub of its Test::RoundTrip reference (the
// omniorb driver's calls, reused: omniorb_calls.hpp). A component client's
// measuring thread calls its Caller executor, which calls through the
// `peer` receptacle or pushes through its event sources: the path a
// component's own code takes. Payloads and events are built before the
// loop; an event is one object whose number changes from call to call.
//
// Any other invocation (the DII, AMI, oneway) and the open loop are the
// omniorb driver's too (omniorb_invocations.hpp), on the facet's reference:
// a Caller's code takes the one its receptacle holds.
#pragma once

#include "RoundTrip.hh"
#include "ccm_executors.hpp"
#include "common/delivery_board.hpp"
#include "mwbench/measurement.hpp"
#include "mwbench/options.hpp"
#include "omniorb_delivery.hpp"
#include "omniorb_invocations.hpp"

namespace ccm_driver {

// How the client calls, beyond the operation: what the omniorb driver's
// invocations need, and the delivery timer every invocation uses.
struct CallPath {
  omniorb_driver::Invocation invocation = omniorb_driver::Invocation::static_stub;
  CORBA::ORB_ptr orb = nullptr;                     // borrowed
  mwbench::common::DeliveryBoard* board = nullptr;  // what the Receiver stamps, if it does
  omniorb_driver::DeliveryTimer delivery;           // delivery_time=1: the series `delivery`
  omniorb_driver::ReplyHandler* handler = nullptr;  // AMI callbacks (and the open loop)
};

// roundtrip, ping, octets, octets_inout from a plain client to `target`.
void measure_object_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                          Test::RoundTrip_ptr target, const CallPath& path);

// roundtrip, ping, octets, event_value, event_struct from the Caller.
void measure_component_calls(const mwbench::DriverOptions& options, mwbench::Measurement& m,
                             CallerExecutor& caller, const CallPath& path);

}  // namespace ccm_driver
