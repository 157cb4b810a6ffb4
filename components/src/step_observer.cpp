// The process's step observer (step_observer.hpp).
#include <array>
#include <atomic>
#include <exception>
#include <mwccm/step_observer.hpp>

namespace mwccm {
namespace {

std::atomic<StepObserver*> installed{nullptr};

constexpr std::array<const char*, 14> kStepNames{
    "container_creation",
    "home_creation",
    "library_load",
    "component_creation",
    "configuration",
    "connection",
    "activation",
    "registration",
    "registration_reference",
    "registration_stringify",
    "registration_publish",
    "passivation",
    "disconnection",
    "removal",
};

}  // namespace

const char* step_name(Step step) { return kStepNames.at(static_cast<std::size_t>(step)); }

void set_step_observer(StepObserver* observer) noexcept { installed.store(observer); }
StepObserver* step_observer() noexcept { return installed.load(); }

ObservedStep::ObservedStep(Step step, std::string subject)
    : observer_(installed.load()), step_(step), exceptions_(std::uncaught_exceptions()) {
  if (observer_ == nullptr) return;
  subject_ = std::move(subject);
  observer_->step_begun(step_, subject_);
}

ObservedStep::~ObservedStep() {
  if (observer_ != nullptr) {
    observer_->step_ended(step_, subject_, std::uncaught_exceptions() == exceptions_);
  }
}

}  // namespace mwccm
