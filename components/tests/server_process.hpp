// A component server in a process of its own, for the end-to-end tests:
// started from an argument list, awaited until it has written its IOR file,
// and never left behind: the destructor stops it (SIGTERM, then SIGKILL) if
// the test did not, so a failing test leaves no process.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mwccm_test {

class ServerProcess {
 public:
  // Runs `program --ior-file <dir>/<name>.ior` and waits for the IOR.
  ServerProcess(const std::string& program, const std::string& dir, const std::string& name);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  std::string target() const { return "file:" + ior_file_; }  // for mwccm::resolve
  // Waits for the process to end by itself (after ComponentServer::shutdown)
  // and returns its exit status; -N when killed by signal N, or after the
  // bounded wait (then it is killed).
  int wait_for_exit();
  int terminate();  // SIGTERM, then wait_for_exit()

 private:
  pid_t pid_ = -1;
  std::string ior_file_;
};

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it by
// the destructor.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mwccm_test
