// A compiled plan's program run by the driver: spawned from an argument
// list in a directory of its own, its standard output read through a pipe
// (to see "assembled"), waited for with its resource use (peak RSS).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace deploy {

class ProgramProcess {
 public:
  // std::runtime_error naming the program if it cannot be started.
  ProgramProcess(const std::vector<std::string>& arguments, const std::string& directory);
  ~ProgramProcess();  // SIGKILLs and reaps it if it still runs
  ProgramProcess(const ProgramProcess&) = delete;
  ProgramProcess& operator=(const ProgramProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }
  // Reads its output until a line starts with `prefix`; std::runtime_error
  // with what it printed if it ends its output first or `timeout` passes.
  void wait_for_line(const std::string& prefix, std::chrono::seconds timeout);
  void terminate();  // SIGTERM
  // Waits for it to exit; std::runtime_error unless it exited with status 0.
  void wait_for_success();
  long peak_rss_kb() const noexcept { return peak_rss_kb_; }  // once it exited

 private:
  std::string name_;
  pid_t pid_ = -1;
  int output_ = -1;  // the pipe's read end
  std::string printed_;
  long peak_rss_kb_ = -1;
};

}  // namespace deploy
