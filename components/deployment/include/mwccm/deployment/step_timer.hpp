// Times the steps mwccm reports (mwccm/step_observer.hpp) in this process,
// with CLOCK_MONOTONIC, into MwccmDeployment::Timings, each marked with the
// process that performed it. Install it for a phase with Timed; the records
// are kept in memory until timings() is asked for.
#pragma once

#include <MwccmDeployment.hh>
#include <mutex>
#include <mwccm/step_observer.hpp>
#include <string>
#include <vector>

namespace mwccm::deployment {

std::uint64_t monotonic_ns() noexcept;

class StepTimer final : public mwccm::StepObserver {
 public:
  explicit StepTimer(std::string process);
  void set_process(std::string process);  // the name records made from now on carry
  void step_begun(mwccm::Step step, const std::string& subject) noexcept override;
  void step_ended(mwccm::Step step, const std::string& subject, bool succeeded) noexcept override;
  // A step timed by its caller (spawning a process, parsing a plan).
  void record(const std::string& step, const std::string& subject, std::uint64_t begin_ns,
              std::uint64_t end_ns);
  MwccmDeployment::Timings* timings() const;  // a copy, for the caller to own

  // Installs a timer as the process's step observer for a scope.
  class Timed {
   public:
    explicit Timed(StepTimer& timer) { mwccm::set_step_observer(&timer); }
    ~Timed() { mwccm::set_step_observer(nullptr); }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;
  };

 private:
  struct Open {
    mwccm::Step step;
    std::string subject;
    std::uint64_t begin_ns;
  };
  struct Done {
    std::string step, subject;
    std::uint64_t begin_ns, end_ns;
  };
  std::string process_;
  mutable std::mutex mutex_;
  std::vector<Open> open_;  // nested steps, innermost last
  std::vector<Done> done_;
};

}  // namespace mwccm::deployment
