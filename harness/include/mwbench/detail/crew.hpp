// The client threads of one multi-threaded measurement (internal to the
// harness; Measurement::run_threads() is the interface).
//
// The threads are started first and held at a gate, so that a thread that
// cannot be started (EAGAIN under --memory-limit-mb, say) never leaves the
// others waiting at a barrier for it. After that, every thread passes every
// sync(), failed or not: a failure skips the remaining steps of all threads,
// never a barrier, so no failure can deadlock the crew.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>

namespace mwbench::detail {

class Crew {
 public:
  // `on_failure` runs once, on the thread whose step failed first; the
  // measurement uses it to stop the loops of the others.
  Crew(int size, std::function<void()> on_failure);
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;

  // Runs body(0) ... body(size - 1) on threads of their own, which inherit
  // the caller's CPU affinity, scheduling policy and signal mask, and joins
  // them. Then rethrows the first exception a step caught, if any.
  void run(const std::function<void(int)>& body);

  // Runs `f` unless a step of any thread has failed; what `f` throws is
  // that thread's failure (the first one is kept for run() to rethrow).
  template <class F>
  void step(F&& f) noexcept {
    if (failed_.load()) return;
    try {
      f();
    } catch (...) {
      fail(std::current_exception());
    }
  }

  // Waits until every thread of the crew has arrived. The last to arrive
  // runs `last` (which must not throw) before any of them goes on.
  void sync(const std::function<void()>& last = nullptr);

  bool failed() const noexcept { return failed_.load(); }

 private:
  void fail(std::exception_ptr error) noexcept;

  int size_;
  std::function<void()> on_failure_;
  std::atomic<bool> failed_{false};
  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  bool gate_open_ = false;
  int arrived_ = 0;
  unsigned generation_ = 0;
  std::exception_ptr error_;
};

}  // namespace mwbench::detail
