#include "ccm_naming.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace ccm_driver {

namespace {

sockaddr_in ipv4(const std::string& text, unsigned short port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (inet_pton(AF_INET, text.c_str(), &address.sin_addr) != 1) {
    throw std::invalid_argument("not an IPv4 address: " + text);
  }
  return address;
}

// A port of `host` the kernel says is free now. omniNames binds it a moment
// later; the window is small, and a lost race fails the start with
// omniNames' message.
unsigned short free_port(const std::string& host) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "socket");
  sockaddr_in address = ipv4(host, 0);
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const int error = errno;
    close(fd);
    throw std::system_error(error, std::generic_category(), "bind " + host + ":0");
  }
  close(fd);
  return ntohs(address.sin_port);
}

bool accepts(const std::string& host, unsigned short port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in address = ipv4(host, port);
  const bool ok = connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return ok;
}

void remove_dir(const std::string& dir) noexcept {
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") unlink((dir + "/" + name).c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

}  // namespace

NamingService::NamingService(const std::string& ipv4_address, double timeout_s) {
  const char* tmp = std::getenv("TMPDIR");
  log_dir_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mwbench-naming-XXXXXX";
  if (mkdtemp(log_dir_.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + log_dir_);
  }
  const unsigned short port = free_port(ipv4_address);
  const std::string host_port = ipv4_address + ":" + std::to_string(port);
  const std::string endpoint = "giop:tcp:" + host_port;
  const std::string log = log_dir_ + "/omniNames.out";
  // Everything the child needs is built before fork(): after it, only
  // async-signal-safe calls.
  std::vector<std::string> args = {"omniNames", "-start",       "-logdir",
                                   log_dir_,    "-ORBendPoint", endpoint};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork omniNames");
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the server
    // The harness blocks SIGTERM in every thread (its signal thread waits
    // for it); a blocked mask survives exec, and omniNames must not keep it.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    setenv("OMNIORB_CONFIG", "/dev/null", 1);
    execvp("omniNames", argv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (!accepts(ipv4_address, port)) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      remove_dir(log_dir_);
      throw std::runtime_error("omniNames exited before accepting connections (status " +
                               std::to_string(status) + "; is omniNames installed?)");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      stop();
      throw std::runtime_error("omniNames did not accept connections on " + endpoint);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  corbaloc_ = "corbaloc::1.2@" + host_port + "/NameService";
}

NamingService::~NamingService() { stop(); }

void NamingService::stop() noexcept {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (!log_dir_.empty()) remove_dir(log_dir_);
  log_dir_.clear();
}

}  // namespace ccm_driver
