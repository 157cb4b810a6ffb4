// A plan compiled into a program (static deployment, docs/deployment.md
// section 5), as CIAO's Static_Configurator does it: mwccm-plan-compile
// writes these tables as constant data, and run_static_plan() assembles them
// in the process at start-up. No XML is read, no library is loaded with
// dlopen (each home's entry point is a function pointer the linker
// resolved), no process is spawned. The assembly itself is the dynamic
// path's: LocalityAssembly, the same steps, timed the same way.
#pragma once

#include <omniORB4/CORBA.h>

#include <MwccmDeployment.hh>
#include <cstddef>
#include <mwccm/deployment/attribute_override.hpp>
#include <mwccm/deployment/plan.hpp>
#include <mwccm/home_registry.hpp>
#include <span>
#include <vector>

namespace mwccm::deployment::static_plan {

struct Home {
  const char* entrypoint;
  mwccm::HomeEntryPoint make;
};

// An attribute value as the plan gives it (checked when compiled).
struct Value {
  const char* name;
  ValueKind kind;
  const char* text;
  const char* enum_type_id;  // Enum only, else ""
  std::span<const char* const> enum_members;
};

struct Instance {
  const char* name;
  std::size_t home;  // index into Plan::homes
  std::span<const Value> attributes;
  const char* ior_file;  // mwccm.InstanceIOR, "" for none
  const char* naming;    // mwccm.RegisterNaming, "" for none
};

// user: a receptacle or an event source; provider: a facet or a consumer.
struct Connection {
  const char* name;
  const char* user_instance;
  const char* user_port;
  const char* provider_instance;  // "" when `external` names the provider
  const char* provider_port;
  bool events;
  bool plain_cxx;
  const char* external;
  const char* delivery;  // connection_settings.hpp
  const char* gateway;
  const char* filter;
  const char* topic;  // delivery "dds": the topic and its QoS
  bool reliable;
  unsigned history_depth;  // 0: KEEP_ALL
};

struct Plan {
  const char* label;
  const char* source;  // the plan file it was compiled from
  const char* locality;
  const char* node;
  int priority;  // the process's real-time settings (section 6); 0 / "" / 0: none
  const char* cpu_affinity;
  unsigned orb_threads;
  std::span<const Home> homes;
  std::span<const Instance> instances;
  std::span<const Connection> connections;
};

// std::invalid_argument for an override of an attribute the tables do not
// set, or with a value not of its kind.
void check_overrides(const Plan& plan, const std::vector<AttributeOverride>& overrides);

// The tables as the locality engine takes them, with `overrides` applied
// (std::invalid_argument for one the plan does not allow); every home's entry
// point is added to the process's HomeRegistry, so that no library is looked for.
MwccmDeployment::LocalityPlan locality_plan(CORBA::ORB_ptr orb, const Plan& plan,
                                            const std::vector<AttributeOverride>& overrides = {});

// The program's main(): the compiled plan's process (section 5 gives its
// options). Returns the exit status.
int run(int argc, char** argv, const Plan& plan);

}  // namespace mwccm::deployment::static_plan
