// Observing the assembly steps, to time them without linking a measuring
// library into mwccm. A deployment engine installs one observer for the
// process (set_step_observer); mwccm::Assembly, the container, the home
// loader and registration then report each step they perform: its kind,
// what it acts on, its start and its end. Without an observer a step costs
// one atomic load. Steps nest: a library load happens inside a home's
// installation, registration's segments inside the registration.
#pragma once

#include <string>

namespace mwccm {

enum class Step {
  ContainerCreation,
  HomeCreation,  // the home's installation, library load included
  LibraryLoad,   // dlopen and dlsym of a home's entry point (dynamic assembly only)
  ComponentCreation,
  Configuration,          // attribute values (set_configuration)
  Connection,             // a receptacle to a facet, or a sink to a source
  Activation,             // configuration_complete, then ccm_activate
  Registration,           // publishing a component's reference, in three segments:
  RegistrationReference,  //   finding the component's reference in its container
  RegistrationStringify,  //   object_to_string (a file target)
  RegistrationPublish,    //   writing the file, or binding the name
  Passivation,
  Disconnection,
  Removal,
};

// "container_creation", "home_creation", ...: the names result files use.
const char* step_name(Step step);

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // `subject` names what the step acts on ("gps", "gps.position"). Called on
  // the thread that performs the step; must not throw.
  virtual void step_begun(Step step, const std::string& subject) noexcept = 0;
  virtual void step_ended(Step step, const std::string& subject, bool succeeded) noexcept = 0;
};

// The process's observer (borrowed; null: none). Set it before the steps
// and keep it alive until they are over.
void set_step_observer(StepObserver* observer) noexcept;
StepObserver* step_observer() noexcept;

// Reports one step for the life of the scope; ended with succeeded = false
// when the scope is left by an exception.
class ObservedStep {
 public:
  ObservedStep(Step step, std::string subject);
  ~ObservedStep();
  ObservedStep(const ObservedStep&) = delete;
  ObservedStep& operator=(const ObservedStep&) = delete;

 private:
  StepObserver* observer_;
  Step step_;
  std::string subject_;
  int exceptions_;
};

}  // namespace mwccm
