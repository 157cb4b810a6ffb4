// What a cell of the CCM driver is: which ends are components (the
// `scenario` option), and which combinations of scenario, mode and
// operation mean something. Checked before any ORB exists, so a bad
// combination is exit status 2 with the reason.
#pragma once

#include <string>

#include "mwbench/options.hpp"

namespace ccm_driver {

enum class OperationKind { call, event, lookup };

struct Scenario {
  std::string name;               // obj-obj, obj-comp, comp-obj, comp-comp
  bool component_client = false;  // the client is a Caller component (receptacle)
  bool component_server = false;  // the server is a Receiver component (facet)
  OperationKind kind = OperationKind::call;
};

// Reads --option scenario (default comp-comp), or --option layer (object:
// obj-obj, component: comp-comp; a scenario given too must agree), and checks
// it against the mode and the operation; throws mwbench::UsageError naming
// what is wrong.
Scenario parse_scenario(const mwbench::DriverOptions& options);

// The help lines of the options, which also say what each operation needs.
extern const char* const kScenarioHelp;
extern const char* const kLayerHelp;

}  // namespace ccm_driver
