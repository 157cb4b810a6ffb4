// ServerProcess and ScratchDir (server_process.hpp).
#include "server_process.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace mwccm_test {

namespace {

// A safety net against a hung server, not a measure: generous on purpose
// (a sanitizer build under load starts slowly).
constexpr auto patience = std::chrono::seconds(60);
constexpr auto poll_interval = std::chrono::milliseconds(20);

bool has_ior(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  return static_cast<bool>(in >> text) && text.rfind("IOR:", 0) == 0;
}

int exit_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return -1;
}

}  // namespace

ServerProcess::ServerProcess(const std::string& program, const std::string& dir,
                             const std::string& name)
    : ior_file_(dir + "/" + name + ".ior") {
  std::vector<std::string> args = {program, "--ior-file", ior_file_, "--endpoint",
                                   "giop:tcp:127.0.0.1:0"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawn(&pid_, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start " + program);
  }
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!has_ior(ior_file_)) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error(program + " exited before writing " + ior_file_);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      terminate();
      throw std::runtime_error(program + " wrote no IOR to " + ior_file_);
    }
    std::this_thread::sleep_for(poll_interval);
  }
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) terminate();
}

int ServerProcess::wait_for_exit() {
  if (pid_ <= 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + patience;
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(poll_interval);
  }
  pid_ = -1;
  return exit_status(status);
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  return wait_for_exit();
}

ScratchDir::ScratchDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/mwccm-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace mwccm_test
