#include "signals.hpp"

#include <pthread.h>

namespace mwbench::detail {

namespace {
sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}
}  // namespace

BlockStopSignals::BlockStopSignals() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, &old_);
}

BlockStopSignals::~BlockStopSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

SignalThread::SignalThread(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  thread_ = std::thread([this] {
    const sigset_t set = stop_signals();
    for (;;) {
      int signo = 0;
      if (sigwait(&set, &signo) != 0) continue;
      if (closing_.load()) return;
      on_signal_(signo);
    }
  });
}

SignalThread::~SignalThread() {
  // A signal aimed at this thread alone wakes its sigwait(); closing_ tells it
  // the signal is ours, not the orchestrator's.
  closing_.store(true);
  pthread_kill(thread_.native_handle(), SIGTERM);
  thread_.join();
}

const char* signal_name(int signo) noexcept {
  switch (signo) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    default:
      return "a signal";
  }
}

}  // namespace mwbench::detail
