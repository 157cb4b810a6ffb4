// A process this one started (a node, a component server): spawned from an
// argument list (never a shell string), reaped by a thread of its own, so
// that a waiter learns at once that it exited (no polling), stopped with
// SIGTERM and, if it does not exit in time, SIGKILL.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mwccm::deployment {

class ChildProcess {
 public:
  // Starts `arguments[0]` with `arguments`; std::runtime_error if it cannot.
  // With `output`, its standard output and error go to that file (appended)
  // instead of this process's; with `directory`, it runs there; with
  // `inherited` (a descriptor of this process), the child has it as its
  // descriptor kInheritedFd.
  explicit ChildProcess(const std::vector<std::string>& arguments, const std::string& output = "",
                        const std::string& directory = "", int inherited = -1);
  static constexpr int kInheritedFd = 3;
  ~ChildProcess();  // stops it (stop()) if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }
  bool exited() const;
  std::string exit_description() const;  // "exited with status 2", "killed by signal 9"
  bool exited_with_success() const;      // exited by itself with status 0
  // Waits until it exits or `timeout` passes; whether it exited.
  bool wait_for_exit(std::chrono::milliseconds timeout) const;
  // Leaves it running when this object goes (a node a launcher leaves behind
  // for a later teardown).
  void release();
  // SIGTERM, then SIGKILL if it has not exited after `grace`; waits for it.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  bool stopped() const;  // stop() was called: it did not end by itself
  // Called (on the reaper thread) when it exits, so that a waiter for
  // something else (a callback) learns it will never come.
  void on_exit(std::function<void()> listener);

 private:
  void reap();
  pid_t pid_ = -1;
  mutable std::mutex mutex_;
  mutable std::condition_variable exited_signal_;
  bool exited_ = false;
  bool released_ = false;
  bool stopped_ = false;
  std::function<void()> listener_;
  int status_ = 0;
  std::thread reaper_;
};

}  // namespace mwccm::deployment
