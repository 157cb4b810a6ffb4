// Running a compiled plan's program (deploy_process.hpp).
#include "deploy_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace deploy {

ProgramProcess::ProgramProcess(const std::vector<std::string>& arguments,
                               const std::string& directory)
    : name_(arguments.front()) {
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe: " + std::string(strerror(errno)));
  std::vector<char*> argv;
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, pipe_ends[1], 1);
  posix_spawn_file_actions_addchdir_np(&files, directory.c_str());
  const int error = posix_spawn(&pid_, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  close(pipe_ends[1]);
  output_ = pipe_ends[0];
  if (error != 0) {
    close(output_);
    throw std::runtime_error("cannot start " + name_ + ": " + std::strerror(error));
  }
}

ProgramProcess::~ProgramProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (output_ >= 0) close(output_);
}

void ProgramProcess::wait_for_line(const std::string& prefix, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    for (std::size_t start = 0, end; (end = printed_.find('\n', start)) != std::string::npos;
         start = end + 1) {
      if (printed_.compare(start, prefix.size(), prefix) == 0) return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd readable{output_, POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&readable, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    char buffer[4096];
    const ssize_t n = ready > 0 ? read(output_, buffer, sizeof buffer) : 0;
    if (n <= 0) {
      throw std::runtime_error(name_ +
                               (ready == 0 ? " printed no '" + prefix + "' in time"
                                           : " ended its output before '" + prefix + "'") +
                               (printed_.empty() ? "" : ": " + printed_));
    }
    printed_.append(buffer, static_cast<std::size_t>(n));
  }
}

void ProgramProcess::terminate() {
  if (pid_ > 0) kill(pid_, SIGTERM);
}

void ProgramProcess::wait_for_success() {
  int status = 0;
  rusage usage{};
  while (wait4(pid_, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error("wait for " + name_ + ": " + strerror(errno));
  }
  pid_ = -1;
  peak_rss_kb_ = usage.ru_maxrss;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  throw std::runtime_error(
      name_ + (WIFEXITED(status) ? " exited with status " + std::to_string(WEXITSTATUS(status))
                                 : " was killed by signal " + std::to_string(WTERMSIG(status))));
}

}  // namespace deploy
