// Processes this one started (child_process.hpp).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <mwccm/deployment/child_process.hpp>
#include <stdexcept>

extern char** environ;

namespace mwccm::deployment {

ChildProcess::ChildProcess(const std::vector<std::string>& arguments, const std::string& output,
                           const std::string& directory, int inherited) {
  std::vector<char*> argv;
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  // Its own process group, so that a terminal's Ctrl-C reaches it through us.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  if (!output.empty()) {
    posix_spawn_file_actions_addopen(&files, 1, output.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
  }
  if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&files, directory.c_str());
  // dup2 leaves the copy open across exec (the original is close-on-exec).
  if (inherited >= 0) posix_spawn_file_actions_adddup2(&files, inherited, kInheritedFd);
  const int error = posix_spawn(&pid_, argv[0], &files, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) {
    throw std::runtime_error("cannot start " + arguments.front() + ": " + std::strerror(error));
  }
  reaper_ = std::thread([this] { reap(); });
}

ChildProcess::~ChildProcess() {
  if (released_) {
    reaper_.detach();  // the process outlives us; its reaper goes with this process
    return;
  }
  stop();
  if (reaper_.joinable()) reaper_.join();
}

void ChildProcess::release() { released_ = true; }

void ChildProcess::reap() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    exited_ = true;
    status_ = status;
    listener = listener_;
  }
  exited_signal_.notify_all();
  if (listener) listener();
}

void ChildProcess::on_exit(std::function<void()> listener) {
  bool already = false;
  {
    std::lock_guard lock(mutex_);
    listener_ = listener;
    already = exited_;
  }
  if (already && listener) listener();
}

bool ChildProcess::exited() const {
  std::lock_guard lock(mutex_);
  return exited_;
}

bool ChildProcess::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

std::string ChildProcess::exit_description() const {
  std::lock_guard lock(mutex_);
  if (!exited_) return "still running";
  if (WIFEXITED(status_)) return "exited with status " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) return "killed by signal " + std::to_string(WTERMSIG(status_));
  return "stopped";
}

bool ChildProcess::exited_with_success() const {
  std::lock_guard lock(mutex_);
  return exited_ && WIFEXITED(status_) && WEXITSTATUS(status_) == 0;
}

bool ChildProcess::wait_for_exit(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return exited_signal_.wait_for(lock, timeout, [this] { return exited_; });
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(mutex_);
    if (pid_ <= 0 || exited_) return;
    stopped_ = true;
  }
  kill(pid_, SIGTERM);
  if (!wait_for_exit(grace)) {
    kill(pid_, SIGKILL);
    wait_for_exit(std::chrono::seconds(60));
  }
}

}  // namespace mwccm::deployment
