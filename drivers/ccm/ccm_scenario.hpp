// What a cell of the CCM driver is: which ends are components (the
// `scenario` option), how the client calls (`invocation`, `delivery`), and
// which combinations of scenario, mode, operation and invocation mean
// something. Checked before any ORB exists, so a bad combination is exit
// status 2 with the reason.
#pragma once

#include <string>

#include "mwbench/options.hpp"
#include "omniorb_invocations.hpp"

namespace ccm_driver {

enum class OperationKind { call, event, lookup };

struct Scenario {
  std::string name;               // obj-obj, obj-comp, comp-obj, comp-comp
  bool component_client = false;  // the client is a Caller component (receptacle)
  bool component_server = false;  // the server is a Receiver component (facet)
  OperationKind kind = OperationKind::call;
  // --option invocation (when absent: static, or ami_callback under an open
  // --load): the omniorb driver's, on the facet's (or plain servant's) reference.
  omniorb_driver::Invocation invocation = omniorb_driver::Invocation::static_stub;
  bool time_delivery = false;  // --option delivery_time=1: the client's series `delivery`

  // Whether the Receiver (or plain servant) stamps a delivery board: the
  // client times deliveries, or calls oneway, which nothing else times.
  bool stamps_delivery() const noexcept {
    return time_delivery || invocation == omniorb_driver::Invocation::oneway;
  }
  // Whether the client takes its replies by AMI callbacks.
  bool callbacks() const noexcept { return invocation == omniorb_driver::Invocation::ami_callback; }
};

// Reads --option scenario (default comp-comp), or --option layer (object:
// obj-obj, component: comp-comp; a scenario given too must agree), and
// --option invocation and delivery, and checks them against the mode, the
// operation and --load; throws mwbench::UsageError naming what is wrong.
Scenario parse_scenario(const mwbench::DriverOptions& options);

// The help lines of the options, which also say what each operation needs.
extern const char* const kScenarioHelp;
extern const char* const kLayerHelp;
extern const char* const kInvocationHelp;

}  // namespace ccm_driver
