// Timing mwccm's steps (step_timer.hpp).
#include <time.h>

#include <mwccm/deployment/step_timer.hpp>

namespace mwccm::deployment {

std::uint64_t monotonic_ns() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(now.tv_nsec);
}

StepTimer::StepTimer(std::string process) : process_(std::move(process)) {}

void StepTimer::set_process(std::string process) {
  std::lock_guard lock(mutex_);
  process_ = std::move(process);
}

void StepTimer::step_begun(mwccm::Step step, const std::string& subject) noexcept {
  const std::uint64_t now = monotonic_ns();
  std::lock_guard lock(mutex_);
  try {
    open_.push_back({step, subject, now});
  } catch (...) {  // out of memory: the step goes untimed rather than the deployment failing
  }
}

void StepTimer::step_ended(mwccm::Step step, const std::string& subject, bool succeeded) noexcept {
  const std::uint64_t now = monotonic_ns();
  std::lock_guard lock(mutex_);
  for (auto open = open_.rbegin(); open != open_.rend(); ++open) {
    if (open->step != step || open->subject != subject) continue;
    try {
      if (succeeded) done_.push_back({mwccm::step_name(step), subject, open->begin_ns, now});
    } catch (...) {
    }
    open_.erase(std::next(open).base());
    return;
  }
}

void StepTimer::record(const std::string& step, const std::string& subject, std::uint64_t begin_ns,
                       std::uint64_t end_ns) {
  std::lock_guard lock(mutex_);
  done_.push_back({step, subject, begin_ns, end_ns});
}

MwccmDeployment::Timings* StepTimer::timings() const {
  std::lock_guard lock(mutex_);
  auto* timings = new MwccmDeployment::Timings;
  timings->length(static_cast<CORBA::ULong>(done_.size()));
  for (CORBA::ULong i = 0; i < timings->length(); ++i) {
    const Done& done = done_[i];
    MwccmDeployment::Timing& timing = (*timings)[i];
    timing.step = done.step.c_str();  // a const char* is copied
    timing.subject = done.subject.c_str();
    timing.process = process_.c_str();
    timing.begin_ns = done.begin_ns;
    timing.end_ns = done.end_ns;
  }
  return timings;
}

}  // namespace mwccm::deployment
