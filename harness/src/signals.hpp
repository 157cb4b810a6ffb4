// SIGINT/SIGTERM handling for driver processes (internal).
//
// The signals are blocked in the main thread before any other thread exists,
// so every thread inherits the mask and the kernel can deliver them only to
// the one thread that sigwait()s for them. That thread is an ordinary thread,
// not a signal handler, so the callback it runs may lock, allocate or call
// into a middleware (orb->shutdown(), shutdown() on a socket).
#pragma once

#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace mwbench::detail {

// Blocks SIGINT and SIGTERM in the calling thread for its lifetime.
class BlockStopSignals {
 public:
  BlockStopSignals();
  ~BlockStopSignals();
  BlockStopSignals(const BlockStopSignals&) = delete;
  BlockStopSignals& operator=(const BlockStopSignals&) = delete;

 private:
  sigset_t old_;
};

// A thread that waits for SIGINT/SIGTERM and runs `on_signal(signo)` for each.
// Construct it while BlockStopSignals is in effect.
class SignalThread {
 public:
  explicit SignalThread(std::function<void(int)> on_signal);
  ~SignalThread();  // wakes the thread and joins it
  SignalThread(const SignalThread&) = delete;
  SignalThread& operator=(const SignalThread&) = delete;

 private:
  std::function<void(int)> on_signal_;
  std::atomic<bool> closing_{false};
  std::thread thread_;
};

// "SIGTERM", "SIGINT", or "signal N".
const char* signal_name(int signo) noexcept;

}  // namespace mwbench::detail
