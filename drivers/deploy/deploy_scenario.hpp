// What a deploy cell deploys (README.md, "Parameters and options"): a plan,
// by name (the Basic SP plans and the scale plans this build has) or by
// path, and for static assembly the program the plan was compiled into.
#pragma once

#include <string>
#include <vector>

#include "mwbench/options.hpp"

namespace deploy {

enum class Assembly { Static, Dynamic };

struct Scenario {
  std::string name;                    // the plan's name as the cell gives it
  std::string plan;                    // the plan file; "" for the plain chain
  std::string program;                 // the compiled plan (static), or the plain chain
  std::vector<std::string> artifacts;  // where artifacts and their .ccd are
  Assembly assembly = Assembly::Dynamic;
  // Basic SP as plain C++ objects with no component layer (the baseline of
  // tick_to_display), run instead of a plan.
  bool plain_chain = false;
  unsigned hertz = 1000;  // tick_to_display: RateGen's rate
  // INSTANCE.ATTRIBUTE=VALUE set at launch (--set of mwccm-deploy and of a
  // compiled plan's program).
  std::vector<std::string> overrides;
  // --bind: where every process of the assembly listens (the driver's ORB,
  // the nodes and their component servers, a compiled plan's program).
  std::string address = "127.0.0.1";
  // --option nodes=FILE: a node map of nodes started elsewhere (on other
  // hosts, by the orchestrator); the driver starts the plan's other nodes.
  std::string node_map;

  // The omniORB endpoint of those processes: "giop:tcp:ADDRESS:0".
  std::string endpoint() const { return "giop:tcp:" + address + ":0"; }
};

// The name of the plain chain among the plans.
inline constexpr const char* kPlainChain = "basic_sp_plain_chain";

// From --option assembly=static|dynamic, plan=NAME|PATH, program=PATH,
// artifacts=DIR, hertz=N, nodes=FILE, and --bind; mwbench::UsageError naming the option
// for anything else (an unknown plan name lists the known ones).
Scenario scenario_of(const mwbench::DriverOptions& options);

// The plans by name, for --describe's help: "basic_sp_one_process, ...".
std::string plan_names();

}  // namespace deploy
