// The stop signals taken by one thread: sent to the process (kill), as a
// user or the orchestrator sends them, while this test blocks them.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <mwbench/stop_signals.hpp>
#include <vector>

namespace {

// The signals a StopSignalThread handed over, and a wait for the n-th.
class Received {
 public:
  void add(int signo) {
    std::lock_guard lock(mutex_);
    signals_.push_back(signo);
    changed_.notify_all();
  }
  std::vector<int> wait_for(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return signals_.size() >= count; });
    return signals_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<int> signals_;
};

TEST(StopSignals, TheCallingThreadWaitsForOne) {
  const mwbench::BlockStopSignals blocked;
  kill(getpid(), SIGINT);
  EXPECT_EQ(mwbench::wait_for_stop_signal(), SIGINT);
}

TEST(StopSignals, TheThreadCallsBackForEachSignal) {
  const mwbench::BlockStopSignals blocked;
  Received received;
  mwbench::StopSignalThread thread([&](int signo) { received.add(signo); });
  kill(getpid(), SIGTERM);
  EXPECT_EQ(thread.wait_for_first(), SIGTERM);
  kill(getpid(), SIGINT);
  EXPECT_EQ(received.wait_for(2), (std::vector<int>{SIGTERM, SIGINT}));
}

TEST(StopSignals, FirstOnlyCallsBackOnceAndWaitReturnsAfterTheCall) {
  const mwbench::BlockStopSignals blocked;
  Received received;
  {
    mwbench::StopSignalThread thread([&](int signo) { received.add(signo); },
                                     mwbench::StopSignalThread::Calls::first_signal_only);
    kill(getpid(), SIGTERM);
    EXPECT_EQ(thread.wait_for_first(), SIGTERM);
    EXPECT_EQ(received.wait_for(1), std::vector<int>{SIGTERM});  // already there
  }
}

TEST(StopSignals, DestroyingTheThreadCallsNothing) {
  const mwbench::BlockStopSignals blocked;
  Received received;
  {
    mwbench::StopSignalThread thread([&](int signo) { received.add(signo); });
  }
  EXPECT_TRUE(received.wait_for(0).empty());
}

}  // namespace
