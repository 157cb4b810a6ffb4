// SIGINT and SIGTERM, the signals that ask a program to stop, taken by one
// thread that waits for them (sigwait), never by a handler: what that
// thread runs may lock, allocate or call into a middleware (orb->shutdown(),
// a teardown). The drivers' harness and mwccm's programs (mwccm-deploy,
// mwccm-node, the component server, a compiled plan) stop this way.
//
// It lives in a folder of its own, header-only, because both use it and
// neither may depend on the other: mwccm is a component middleware that
// installs without the benchmark harness, and the harness serves drivers
// of every middleware, with no ORB (dds_common/ is shared the same way).
//
// Block the signals in main before any other thread exists, so that every
// thread inherits the mask and the kernel delivers them only to the waiter.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace mwbench {

inline sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// Blocks SIGINT and SIGTERM in the calling thread, and in the threads it
// then starts, for good: a program that stops once leaves a second signal
// pending until it exits rather than be killed by it during its teardown.
inline void block_stop_signals() {
  const sigset_t set = stop_signal_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

// The same for its lifetime (the harness runs a driver within it).
class BlockStopSignals {
 public:
  BlockStopSignals() {
    const sigset_t set = stop_signal_set();
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockStopSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockStopSignals(const BlockStopSignals&) = delete;
  BlockStopSignals& operator=(const BlockStopSignals&) = delete;

 private:
  sigset_t old_;
};

// Waits in the calling thread for a stop signal; returns it.
inline int wait_for_stop_signal() {
  const sigset_t set = stop_signal_set();
  int signo = 0;
  while (sigwait(&set, &signo) != 0) {
  }
  return signo;
}

// A thread that waits for stop signals while it lives and runs
// `on_signal(signo)` for each, or for the first only: a program that stops
// once has nothing to do with a second signal. Construct it while
// BlockStopSignals is in effect; its destructor wakes and joins the thread,
// after which `on_signal` is never called.
class StopSignalThread {
 public:
  enum class Calls { each_signal, first_signal_only };

  explicit StopSignalThread(std::function<void(int)> on_signal, Calls calls = Calls::each_signal)
      : on_signal_(std::move(on_signal)), calls_(calls) {
    thread_ = std::thread([this] { wait_and_call(); });
  }
  ~StopSignalThread() {
    // A signal aimed at this thread alone wakes its sigwait(); closing_ tells
    // it the signal is ours, not a request to stop.
    closing_.store(true);
    pthread_kill(thread_.native_handle(), SIGTERM);
    thread_.join();
  }
  StopSignalThread(const StopSignalThread&) = delete;
  StopSignalThread& operator=(const StopSignalThread&) = delete;

  // Blocks until the first stop signal has come and `on_signal` has run for
  // it; returns that signal.
  int wait_for_first() {
    std::unique_lock lock(mutex_);
    handled_.wait(lock, [this] { return first_ != 0; });
    return first_;
  }

 private:
  void wait_and_call() {
    for (;;) {
      const int signo = wait_for_stop_signal();
      if (closing_.load()) return;
      bool first = false;
      {
        std::lock_guard lock(mutex_);
        first = first_ == 0;
      }
      if (first || calls_ == Calls::each_signal) on_signal_(signo);
      if (first) {
        std::lock_guard lock(mutex_);
        first_ = signo;
        handled_.notify_all();
      }
    }
  }

  std::function<void(int)> on_signal_;
  const Calls calls_;
  std::atomic<bool> closing_{false};
  std::mutex mutex_;
  std::condition_variable handled_;
  int first_ = 0;  // the first stop signal, once on_signal has run for it
  std::thread thread_;
};

}  // namespace mwbench
