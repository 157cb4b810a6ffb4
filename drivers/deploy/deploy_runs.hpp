// One whole assembly and teardown of a plan per call, statically (the
// compiled plan's program, run --once) or dynamically (mwccm-deploy's
// launcher in this process, driving mwccm-node daemons started once per
// cell, as DAnCE's node managers are), and what each step took.
#pragma once

#include <omniORB4/CORBA.h>

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "deploy_footprint.hpp"
#include "deploy_scenario.hpp"

namespace deploy {

// The sum of each step's times in one assembly and teardown (ns), by the
// names of mwccm/step_observer.hpp and the deployment's own steps.
using StepTotals = std::map<std::string, std::uint64_t>;

// A step as a named series of the result file: its name, and the step it is
// a segment of ("" for none), declared after it.
struct Step {
  std::string name;
  std::string part_of;
};

class Deployments {
 public:
  virtual ~Deployments() = default;
  // The steps this mode times: the named series of the result file, each
  // after the step it is a part of.
  virtual std::vector<Step> steps() const = 0;
  virtual StepTotals assemble_and_tear_down() = 0;
  // Untimed: an assembly held until tear_down() (a server's, a footprint's).
  virtual void assemble() = 0;
  virtual void tear_down() = 0;
  // While held: the processes the assembly needs on this host (the launcher,
  // which is this driver, aside).
  virtual std::vector<HostProcess> processes() const = 0;
  // While held: the reference provided for a connection across processes to
  // `instance`.`port` (dynamic assembly); nil when none does.
  virtual CORBA::Object_ptr provided_reference(const std::string& /*instance*/,
                                               const std::string& /*port*/) const {
    return CORBA::Object::_nil();
  }
  // The nodes of --option nodes, started elsewhere: their processes are not
  // among processes().
  virtual std::vector<std::string> nodes_elsewhere() const { return {}; }
};

// `scratch` is where registrations, timings and node logs go.
std::unique_ptr<Deployments> make_deployments(CORBA::ORB_ptr orb, const Scenario& scenario,
                                              const std::string& scratch);

}  // namespace deploy
